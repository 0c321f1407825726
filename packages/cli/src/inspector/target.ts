import { isSupportedRevision, LATEST_LEGACY_REVISION, LATEST_REVISION, type Revision } from "mcpkit";
import type { PageTarget, ProtocolChoice } from "./contract/events.js";
import type { OriginCredentials } from "./credentials.js";

export type { PageTarget, ProtocolChoice };

/** The server being inspected: an HTTP endpoint, or a command that speaks MCP on stdio. */
export type Target =
  | { kind: "http"; url: string; headers: Record<string, string> }
  | { kind: "stdio"; command: string; args: string[]; env: Record<string, string>; cwd?: string };

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

/** What the page is told of a target: a header's name, never its value; a command, never its variables. */
export function pageTarget(target: Target, credentials: OriginCredentials): PageTarget {
  if (target.kind === "http") return { kind: "http", url: target.url, headers: credentials.headerNames(target.url) };
  return { kind: "stdio", command: target.command, args: target.args, ...(target.cwd && { cwd: target.cwd }) };
}
