import { existsSync, readFileSync } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import { parseJsonc } from "@mcpkit/servers/config";
import { UsageError } from "@mcpkit/servers/options";
import { type ConfigFile, herePlace, type Place, projectFiles, userFiles } from "./locations.js";
import { ConfigEntryError, type ServerSpec, serverSpec } from "./server-spec.js";

/** No configuration file names the server: the message says which files were read, and the names they hold. */
export class ServerNotFound extends UsageError {
  override name = "ServerNotFound";
}

/** A server as a configuration file names it. */
export interface NamedServer {
  name: string;
  file: ConfigFile;
  /** The entry as written. */
  entry: unknown;
  /** Another file read earlier names a server the same: that one is used. */
  shadowed: boolean;
}

export interface ConfigOptions {
  /** Read only this file (--config FILE). */
  config?: string;
  /** Where to look from; default: this process's directory, home, platform and variables. */
  place?: Place;
}

/** Every server the configuration files name, in the order they are read, and the files' problems. */
export interface ServerList {
  servers: NamedServer[];
  /** The files that exist and were read. */
  read: ConfigFile[];
  /** Files that could not be read, each with why. */
  problems: string[];
}

/**
 * The files read, in order (docs/workflow.md, "Named servers"): with --config only that
 * file; otherwise each project's files from the current directory up to the root (nearest
 * first: `.mcp.json`, `mcp.json`, `.vscode/mcp.json`, `.cursor/mcp.json`), then the user's
 * (`~/.claude.json`, Claude Desktop's file, `~/.cursor/mcp.json`, VS Code's user mcp.json).
 */
export function configFiles(options: ConfigOptions = {}): ConfigFile[] {
  const place = options.place ?? herePlace();
  if (options.config !== undefined) {
    const path = resolve(place.cwd, options.config);
    return [{ client: clientOfPath(path), path, key: "mcpServers", project: dirname(path) }];
  }
  const users = userFiles(place);
  // Walking up through the home folder passes ~/.cursor/mcp.json, which is Cursor's user
  // file: read once, as the user's (no project folder), not also as a project's of home.
  const own = new Set(users.map((file) => file.path));
  const files: ConfigFile[] = [];
  for (let dir = resolve(place.cwd); ; dir = dirname(dir)) {
    files.push(...projectFiles(dir).filter((file) => !own.has(file.path)));
    if (dirname(dir) === dir) break;
  }
  return [...files, ...users];
}

const clientOfPath = (path: string): ConfigFile["client"] =>
  basename(path) === "claude_desktop_config.json"
    ? "claude-desktop"
    : basename(path) === ".mcp.json" || basename(path) === ".claude.json"
      ? "claude-code"
      : "mcp.json";

export function listServers(options: ConfigOptions = {}): ServerList {
  const place = options.place ?? herePlace();
  const list: ServerList = { servers: [], read: [], problems: [] };
  const seen = new Set<string>();
  for (const file of configFiles(options)) {
    if (options.config === undefined && !existsSync(file.path)) continue;
    let entries: [string, unknown][];
    try {
      entries = serversIn(file, readFileSync(file.path, "utf8"), place.cwd);
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      if (options.config !== undefined) throw new UsageError(`--config ${file.path} cannot be read: ${reason}`);
      list.problems.push(`${file.path}: ${reason}`);
      continue;
    }
    list.read.push(file);
    for (const [name, entry] of entries) {
      list.servers.push({ name, file, entry, shadowed: seen.has(name) });
      seen.add(name);
    }
  }
  return list;
}

/** The servers of one file: under `mcpServers` or VS Code's `servers`; in ~/.claude.json this project's first. */
function serversIn(file: ConfigFile, text: string, cwd: string): [string, unknown][] {
  let json: unknown;
  try {
    json = parseJsonc(text);
  } catch (error) {
    throw new Error(`not valid JSON (${(error as Error).message})`);
  }
  if (typeof json !== "object" || json === null) throw new Error("not a JSON object");
  const root = json as Record<string, unknown>;
  const entries = (value: unknown) =>
    typeof value === "object" && value !== null ? Object.entries(value as Record<string, unknown>) : [];
  const own = entries(root[file.key] ?? root.mcpServers ?? root.servers);
  if (basename(file.path) !== ".claude.json" || file.project !== undefined) return own;
  // Claude Code's local scope: servers kept per project folder, before its user scope.
  const projects = (root.projects ?? {}) as Record<string, { mcpServers?: unknown }>;
  const local: [string, unknown][] = [];
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    local.push(...entries(projects[dir]?.mcpServers));
    if (dirname(dir) === dir) break;
  }
  return [...local, ...own];
}

/** The server named `name`: the first of that name in the files, read into a ServerSpec. */
export function findServer(name: string, options: ConfigOptions = {}): { server: NamedServer; spec: ServerSpec } {
  const place = options.place ?? herePlace();
  const list = listServers({ ...options, place });
  const server = list.servers.find((s) => s.name === name);
  if (!server) throw new ServerNotFound(notFound(name, list, options));
  try {
    const spec = serverSpec(server.entry, {
      ...(server.file.project !== undefined && { project: server.file.project }),
      home: place.home,
      env: place.env,
    });
    return { server, spec };
  } catch (error) {
    if (error instanceof ConfigEntryError)
      throw new UsageError(`The server "${name}" in ${server.file.path} cannot be used: ${error.message}`);
    throw error;
  }
}

function notFound(name: string, list: ServerList, options: ConfigOptions): string {
  const where =
    options.config !== undefined
      ? `in ${list.read[0]?.path ?? options.config}`
      : list.read.length === 0
        ? "in any MCP configuration file (none was found here)"
        : `in ${list.read.map((f) => f.path).join(", ")}`;
  const names = [...new Set(list.servers.map((s) => s.name))];
  const known = names.length > 0 ? ` Servers named there: ${names.join(", ")}.` : "";
  const problems = list.problems.length > 0 ? ` Not read: ${list.problems.join("; ")}.` : "";
  return (
    `No server named "${name}" ${where}.${known}${problems} ` +
    "Give a URL, a command after --, or a name from a configuration file (mcpkit servers lists them; --config FILE reads another)."
  );
}
