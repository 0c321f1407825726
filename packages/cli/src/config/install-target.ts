import { join } from "node:path";
import { type ClientName, type ConfigFile, claudeDesktopFile, type Place, userFiles } from "./locations.js";
import type { ServerSpec } from "./server-spec.js";

export type Scope = "project" | "user";

/** Where `mcpkit install` writes by default: Claude Desktop and Cursor per user, Claude Code and VS Code per project. */
export const DEFAULT_SCOPE: Record<ClientName, Scope> = {
  "claude-desktop": "user",
  "claude-code": "project",
  cursor: "user",
  vscode: "project",
};

/** The file a client reads its servers from, in this project or for this user. */
export function installFile(client: ClientName, scope: Scope, place: Place): ConfigFile {
  const cwd = place.cwd;
  if (client === "claude-desktop") {
    if (scope === "project") throw new Error("Claude Desktop has no per-project configuration: use --scope user");
    return claudeDesktopFile(place);
  }
  if (scope === "user") {
    const file = userFiles(place).find((f) => f.client === client);
    if (!file) throw new Error(`${client} keeps no user configuration mcpkit knows`);
    return file;
  }
  if (client === "claude-code") return { client, path: join(cwd, ".mcp.json"), key: "mcpServers", project: cwd };
  if (client === "cursor") return { client, path: join(cwd, ".cursor", "mcp.json"), key: "mcpServers", project: cwd };
  return { client, path: join(cwd, ".vscode", "mcp.json"), key: "servers", project: cwd };
}

/**
 * The entry as the client expects it. Claude Desktop's file takes commands only, so a
 * server at a URL is reached through `proxy` (mcpkit serve proxy URL), started by `mcpkit`.
 */
export function clientEntry(client: ClientName, spec: ServerSpec, mcpkit: readonly string[]): Record<string, unknown> {
  if (spec.transport !== "stdio") {
    if (client === "claude-desktop") {
      const headers = Object.entries(spec.headers).flatMap(([name, value]) => ["--header", `${name}: ${value}`]);
      const [command, ...args] = mcpkit as [string, ...string[]];
      return { command, args: [...args, "serve", "proxy", spec.url, ...headers] };
    }
    const headers = Object.keys(spec.headers).length > 0 ? { headers: spec.headers } : {};
    if (client === "cursor") return { url: spec.url, ...headers };
    return { type: spec.transport, url: spec.url, ...headers };
  }
  const env = Object.keys(spec.env).length > 0 ? { env: spec.env } : {};
  const typed = client === "vscode" || client === "claude-code" ? { type: "stdio" } : {};
  return { ...typed, command: spec.command, args: spec.args, ...env };
}
