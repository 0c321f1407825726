import { isSupportedRevision, LATEST_LEGACY_REVISION, LATEST_REVISION, type Revision } from "mcpkit";

/** The server being inspected: an HTTP endpoint, or a command that speaks MCP on stdio. */
export type Target =
  | { kind: "http"; url: string; headers: Record<string, string> }
  | { kind: "stdio"; command: string; args: string[]; env: Record<string, string>; cwd?: string };

/**
 * A target as the page is told of it: an HTTP server's URL and the names of the headers
 * held for its origin, never their values; a command and its arguments, never its variables.
 */
export type PageTarget =
  | { kind: "http"; url: string; headers: string[] }
  | { kind: "stdio"; command: string; args: string[]; cwd?: string };

/** `--protocol`: let the client find the newest era the server speaks, force one, or name a revision. */
export type ProtocolChoice = "auto" | "legacy" | "modern" | Revision;

export function isProtocolChoice(value: string): value is ProtocolChoice {
  return value === "auto" || value === "legacy" || value === "modern" || isSupportedRevision(value);
}

/** The Client's protocolVersion for a choice: unset for auto (discover first, else the handshake). */
export function revisionFor(choice: ProtocolChoice): Revision | undefined {
  if (choice === "auto") return undefined;
  if (choice === "legacy") return LATEST_LEGACY_REVISION;
  if (choice === "modern") return LATEST_REVISION;
  return choice;
}

/** One line naming the target, for the terminal and the page. */
export function describeTarget(target: Target): string {
  return target.kind === "http" ? target.url : [target.command, ...target.args].join(" ");
}
