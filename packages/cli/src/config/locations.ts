import { homedir } from "node:os";
import { join } from "node:path";

/** The MCP clients whose configuration files mcpkit reads (and `mcpkit install` writes). */
export const CLIENTS = ["claude-code", "vscode", "cursor", "claude-desktop"] as const;
export type ClientName = (typeof CLIENTS)[number];

/** Where the reading happens: the directory, the home directory, the platform and its variables. */
export interface Place {
  cwd: string;
  home: string;
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
}

export const herePlace = (): Place => ({
  cwd: process.cwd(),
  home: homedir(),
  platform: process.platform,
  env: process.env,
});

/**
 * One configuration file: whose it is, where, under which key its servers are
 * (`mcpServers`, or VS Code's `servers`), and the folder it belongs to (a project's, whose
 * `${workspaceFolder}` it is and where its servers start; undefined for a user's file).
 */
export interface ConfigFile {
  client: ClientName | "mcp.json";
  path: string;
  key: "mcpServers" | "servers";
  project?: string;
}

/** A project's files in `dir`, in the order they are read. */
export function projectFiles(dir: string): ConfigFile[] {
  return [
    { client: "claude-code", path: join(dir, ".mcp.json"), key: "mcpServers", project: dir },
    { client: "mcp.json", path: join(dir, "mcp.json"), key: "mcpServers", project: dir },
    { client: "vscode", path: join(dir, ".vscode", "mcp.json"), key: "servers", project: dir },
    { client: "cursor", path: join(dir, ".cursor", "mcp.json"), key: "mcpServers", project: dir },
  ];
}

/** The folder where an application keeps its settings: Application Support, %APPDATA%, ~/.config. */
function appSettings(place: Place): string {
  if (place.platform === "darwin") return join(place.home, "Library", "Application Support");
  if (place.platform === "win32") return place.env.APPDATA ?? join(place.home, "AppData", "Roaming");
  return place.env.XDG_CONFIG_HOME || join(place.home, ".config");
}

/** Claude Desktop's one file: claude_desktop_config.json. */
export const claudeDesktopFile = (place: Place): ConfigFile => ({
  client: "claude-desktop",
  path: join(appSettings(place), "Claude", "claude_desktop_config.json"),
  key: "mcpServers",
});

/** The user's own files, in the order they are read after the projects'. */
export function userFiles(place: Place): ConfigFile[] {
  return [
    // Claude Code's user scope (its "mcpServers"; the per-project ones are read from it too).
    { client: "claude-code", path: join(place.home, ".claude.json"), key: "mcpServers" },
    claudeDesktopFile(place),
    { client: "cursor", path: join(place.home, ".cursor", "mcp.json"), key: "mcpServers" },
    { client: "vscode", path: join(appSettings(place), "Code", "User", "mcp.json"), key: "servers" },
  ];
}
