import type { McpServer } from "../../server/mcp-server.js";
import { isObject } from "../json/sorted.js";

/** A server started as a command that speaks MCP on its stdin and stdout. */
export interface CommandTarget {
  command: string;
  args?: string[];
  /** Added to the variables a server inherits (PATH, HOME and the like: `DEFAULT_INHERITED_ENV`). */
  env?: Record<string, string>;
  /** Where it starts (default: this process's folder; a test file's own folder for `runTests`). */
  cwd?: string;
}

/** A server reached over Streamable HTTP (or HTTP+SSE, which the client falls back to). */
export interface UrlTarget {
  url: string | URL;
  headers?: Record<string, string>;
}

/**
 * The server `runTests`, `replay` and `snapshot` talk to: a command, a URL (a string or
 * `{ url, headers }`), or an `McpServer` in this process (connected in memory). Names from
 * MCP configuration files are the CLI's to resolve.
 */
export type ServerTarget = McpServer | CommandTarget | UrlTarget | string | URL;

export type ResolvedTarget =
  | { kind: "server"; server: McpServer }
  | { kind: "command"; command: string; args: string[]; env: Record<string, string>; cwd?: string }
  | { kind: "url"; url: URL; headers: Record<string, string> };

/** An McpServer by its shape: a server module may load its own copy of mcpkit. */
export function isMcpServer(value: unknown): value is McpServer {
  const server = value as Partial<McpServer> | null;
  return (
    typeof server === "object" &&
    server !== null &&
    typeof server.connect === "function" &&
    typeof server.tool === "function" &&
    typeof (server.info as { name?: unknown } | undefined)?.name === "string"
  );
}

const strings = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === "string");
const stringMap = (value: unknown): value is Record<string, string> =>
  isObject(value) && Object.values(value).every((item) => typeof item === "string");

function url(value: string | URL): URL {
  const parsed = URL.canParse(String(value)) ? new URL(value) : undefined;
  if (parsed?.protocol === "http:" || parsed?.protocol === "https:") return parsed;
  throw new TypeError(`"${String(value)}" is not an http:// or https:// URL`);
}

/** What a target names, checked: a TypeError says what is wrong with it. */
export function resolveTarget(target: ServerTarget): ResolvedTarget {
  if (typeof target === "string" || target instanceof URL) return { kind: "url", url: url(target), headers: {} };
  if (isMcpServer(target)) return { kind: "server", server: target };
  if (isObject(target) && typeof target.command === "string") {
    const { command, args = [], env = {}, cwd } = target as Record<string, unknown>;
    if (command === "") throw new TypeError("The server's command is empty");
    if (!strings(args)) throw new TypeError("The server's args must be a list of strings");
    if (!stringMap(env)) throw new TypeError("The server's env must map names to strings");
    if (cwd !== undefined && typeof cwd !== "string") throw new TypeError("The server's cwd must be a string");
    return { kind: "command", command: command as string, args, env, ...(cwd !== undefined && { cwd }) };
  }
  if (isObject(target) && (typeof target.url === "string" || target.url instanceof URL)) {
    const headers = target.headers ?? {};
    if (!stringMap(headers)) throw new TypeError("The server's headers must map names to strings");
    return { kind: "url", url: url(target.url as string | URL), headers };
  }
  throw new TypeError("A server is a command ({ command, args }), a URL ({ url } or a string) or an McpServer");
}

/** One line naming the target, for reports. */
export function describeTarget(target: ResolvedTarget): string {
  if (target.kind === "server") return `the server "${target.server.info.name}" in this process`;
  if (target.kind === "url") return target.url.href;
  return [target.command, ...target.args].join(" ");
}
