// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the clients' own syntax for a variable, ${NAME}, is text here
import { join } from "node:path";
import type { Place } from "./locations.js";

/** The clients `mcpkit install` writes to (docs/workflow.md lists each file, scope and format, with its source). */
export const INSTALL_CLIENTS = [
  "claude-code",
  "vscode",
  "cursor",
  "claude-desktop",
  "windsurf",
  "cline",
  "gemini",
  "zed",
  "codex",
  "goose",
  "continue",
] as const;
export type InstallClient = (typeof INSTALL_CLIENTS)[number];

export type Scope = "project" | "user";

/**
 * How a file's paths are written: relative to the project (the client starts its servers in
 * the project's folder), with the client's `${workspaceFolder}`, or absolute (a user's file
 * has no working folder, and some clients name none for a project's either).
 */
export type PathStyle = "relative" | "workspace-folder" | "absolute";

/**
 * How the servers sit in the file: JSON under a key; a TOML table per server; a YAML map;
 * a YAML list of named entries; or a YAML file of its own per server (Continue's blocks).
 */
export type Format = "json" | "toml" | "yaml-map" | "yaml-list" | "yaml-block";

/** One client's file for one scope. */
export interface InstallTarget {
  client: InstallClient;
  scope: Scope;
  path: string;
  format: Format;
  /** The key the servers are under. */
  key: string;
  paths: PathStyle;
  /** The project's folder, for a project's file. */
  project?: string;
}

interface Client {
  title: string;
  defaultScope: Scope;
  files: Partial<Record<Scope, (place: Place, name: string) => Omit<InstallTarget, "client" | "scope" | "project">>>;
  /** How the client's file refers to a variable of the environment, for a secret (none: it reads none). */
  variable?: string;
  /** What to do next, said after writing. */
  next: string;
}

/** Where an application keeps its settings: Application Support, %APPDATA%, ~/.config. */
export function appSettings(place: Place): string {
  if (place.platform === "darwin") return join(place.home, "Library", "Application Support");
  if (place.platform === "win32") return place.env.APPDATA ?? join(place.home, "AppData", "Roaming");
  return place.env.XDG_CONFIG_HOME || join(place.home, ".config");
}

const json = (path: string, key: string, paths: PathStyle = "absolute") => ({
  path,
  format: "json" as const,
  key,
  paths,
});

/** A server's name as a file name (Continue's block files). */
const fileName = (name: string) => name.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^[.-]+/, "") || "server";

export const CLIENTS: Record<InstallClient, Client> = {
  "claude-code": {
    title: "Claude Code",
    defaultScope: "project",
    files: {
      project: (p) => json(join(p.cwd, ".mcp.json"), "mcpServers", "relative"),
      user: (p) => json(join(p.home, ".claude.json"), "mcpServers"),
    },
    variable: "${NAME}",
    next: "Claude Code asks to approve a project's servers the next time it starts here.",
  },
  vscode: {
    title: "VS Code",
    defaultScope: "project",
    files: {
      project: (p) => json(join(p.cwd, ".vscode", "mcp.json"), "servers", "workspace-folder"),
      user: (p) => json(join(appSettings(p), "Code", "User", "mcp.json"), "servers"),
    },
    variable: "${env:NAME} (or an input with password: true)",
    next: "VS Code lists it under MCP: List Servers.",
  },
  cursor: {
    title: "Cursor",
    defaultScope: "user",
    files: {
      project: (p) => json(join(p.cwd, ".cursor", "mcp.json"), "mcpServers", "workspace-folder"),
      user: (p) => json(join(p.home, ".cursor", "mcp.json"), "mcpServers"),
    },
    variable: "${env:NAME}",
    next: "Cursor picks it up in Settings → MCP.",
  },
  "claude-desktop": {
    title: "Claude Desktop",
    defaultScope: "user",
    files: { user: (p) => json(join(appSettings(p), "Claude", "claude_desktop_config.json"), "mcpServers") },
    next: "Restart Claude Desktop to start it.",
  },
  windsurf: {
    title: "Windsurf",
    defaultScope: "user",
    files: { user: (p) => json(join(p.home, ".codeium", "windsurf", "mcp_config.json"), "mcpServers") },
    variable: "${env:NAME}",
    next: "Windsurf lists it after Refresh in Cascade's MCP panel.",
  },
  cline: {
    title: "Cline",
    defaultScope: "user",
    files: {
      user: (p) =>
        json(
          join(
            appSettings(p),
            "Code",
            "User",
            "globalStorage",
            "saoudrizwan.claude-dev",
            "settings",
            "cline_mcp_settings.json",
          ),
          "mcpServers",
        ),
    },
    next: "Cline lists it in its MCP Servers panel.",
  },
  gemini: {
    title: "Gemini CLI",
    defaultScope: "project",
    files: {
      project: (p) => json(join(p.cwd, ".gemini", "settings.json"), "mcpServers", "relative"),
      user: (p) => json(join(p.home, ".gemini", "settings.json"), "mcpServers"),
    },
    variable: "${NAME}",
    next: "Gemini CLI starts it with its next session here (/mcp lists it).",
  },
  zed: {
    title: "Zed",
    defaultScope: "user",
    files: {
      project: (p) => json(join(p.cwd, ".zed", "settings.json"), "context_servers"),
      user: (p) =>
        json(
          p.platform === "win32"
            ? join(p.env.APPDATA ?? join(p.home, "AppData", "Roaming"), "Zed", "settings.json")
            : join(p.home, ".config", "zed", "settings.json"),
          "context_servers",
        ),
    },
    next: "Zed starts it; the Agent Panel's settings show it.",
  },
  codex: {
    title: "Codex CLI",
    defaultScope: "user",
    files: {
      project: (p) => ({
        path: join(p.cwd, ".codex", "config.toml"),
        format: "toml",
        key: "mcp_servers",
        paths: "absolute",
      }),
      user: (p) => ({
        path: join(p.env.CODEX_HOME || join(p.home, ".codex"), "config.toml"),
        format: "toml",
        key: "mcp_servers",
        paths: "absolute",
      }),
    },
    next: "Codex starts it with its next session (codex mcp list shows it; a project's file counts in a trusted project).",
  },
  goose: {
    title: "Goose",
    defaultScope: "user",
    files: {
      user: (p) => ({
        path:
          p.platform === "win32"
            ? join(p.env.APPDATA ?? join(p.home, "AppData", "Roaming"), "Block", "goose", "config", "config.yaml")
            : join(p.home, ".config", "goose", "config.yaml"),
        format: "yaml-map",
        key: "extensions",
        paths: "absolute",
      }),
    },
    next: "Goose loads it with its next session.",
  },
  continue: {
    title: "Continue",
    defaultScope: "project",
    files: {
      project: (p, name) => ({
        path: join(p.cwd, ".continue", "mcpServers", `${fileName(name)}.yaml`),
        format: "yaml-block",
        key: "mcpServers",
        paths: "absolute",
      }),
      user: (p) => ({
        path: join(p.home, ".continue", "config.yaml"),
        format: "yaml-list",
        key: "mcpServers",
        paths: "absolute",
      }),
    },
    next: "Continue uses it in agent mode once it reloads its configuration.",
  },
};

export const DEFAULT_SCOPE = Object.fromEntries(
  INSTALL_CLIENTS.map((client) => [client, CLIENTS[client].defaultScope]),
) as Record<InstallClient, Scope>;

/** The file a client reads its servers from, in this project or for this user; `name` names a file of its own (Continue). */
export function installFile(client: InstallClient, scope: Scope, place: Place, name = "server"): InstallTarget {
  const file = CLIENTS[client].files[scope];
  if (!file) {
    const other = scope === "project" ? "user" : "project";
    throw new Error(
      `${CLIENTS[client].title} has no ${scope === "project" ? "per-project configuration" : "user configuration mcpkit knows"}: use --scope ${other}`,
    );
  }
  return { client, scope, ...file(place, name), ...(scope === "project" && { project: place.cwd }) };
}
