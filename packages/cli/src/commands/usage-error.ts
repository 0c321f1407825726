// A mistake on the command line, or in a built-in server's options: one class for both
// (it lives with the option parsing in @mcpkit/servers), so every command exits 2 on one.
export { UsageError } from "@mcpkit/servers/options";

/** The exit code of a usage error, as commander's own (an unknown option, a missing value). */
export const USAGE_EXIT = 2;
