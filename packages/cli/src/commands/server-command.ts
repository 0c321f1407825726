import { Command } from "commander";
import { COMMAND_SUMMARIES, type CommandName } from "./summaries.js";
import { USAGE_EXIT } from "./usage-error.js";

/** A repeatable option: each value is added to the list. */
export const collect = (value: string, previous: string[] = []) => [...previous, value];

export interface ServerCommandShape {
  /** What follows `mcpkit NAME` in the usage line (default: a URL or NAME, or `-- COMMAND`). */
  usage?: string;
  /** What `[server...]` says in the help (default: a URL, a NAME, or the command after --). */
  argument?: string;
}

/**
 * The shape of a command that reaches one server (`URL`, `NAME`, `-- COMMAND`): doctor,
 * lint, inspect, snapshot, record. Its summary, usage line and `[server...]` argument, the
 * help printed after the options, and commander's usage errors exiting 2 as ours do. The
 * command adds its own options and its action.
 */
export function serverCommand(name: CommandName, help: string, shape: ServerCommandShape = {}): Command {
  return new Command(name)
    .description(COMMAND_SUMMARIES[name].description)
    .usage(shape.usage ?? `[options] URL|NAME\n       mcpkit ${name} [options] -- COMMAND [ARGS…]`)
    .argument(
      "[server...]",
      shape.argument ?? "the server: a URL, a name from your MCP configuration, or after -- the command that starts it",
    )
    .addHelpText("after", help)
    .showHelpAfterError(`(mcpkit ${name} --help shows the usage)`)
    .exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : USAGE_EXIT));
}
