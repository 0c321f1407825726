import { pathToFileURL } from "node:url";
import { createServer } from "mcpkit/server";
import type { ServerHandle } from "../handle.js";
import { VERSION } from "../version.js";
import { WorkspaceError } from "./errors.js";
import type { FileAccess } from "./files/access.js";
import { registerBrowseTools } from "./files/browse-tools.js";
import { changeKey, listChangeKey } from "./files/change-key.js";
import { formatBytes } from "./files/format.js";
import { registerReadTools } from "./files/read-tools.js";
import { registerFileResources } from "./files/resources.js";
import { registerSearchTools } from "./files/search-tools.js";
import { watchAreas } from "./files/watch.js";
import { registerWriteTools } from "./files/write-tools.js";
import { findRepos } from "./git/repos.js";
import { registerGitResources } from "./git/resources.js";
import { registerGitTools } from "./git/tools.js";
import { DEFAULT_MAX_WATCHED_DIRECTORIES } from "./limits.js";
import { type WorkspaceOptions, workspaceOptions } from "./options.js";
import { registerPrompts } from "./prompts.js";
import { configuredAreas } from "./roots/area.js";
import { createRootScope } from "./roots/client-roots.js";
import { openDatabase } from "./sqlite/database.js";
import type { SqlEngine } from "./sqlite/engine.js";
import { loadSqlite } from "./sqlite/native.js";
import { registerSqlResources } from "./sqlite/resources.js";
import { registerSqlTools } from "./sqlite/tools.js";

export type { ClusterOptions, ServerHandle } from "../handle.js";
export { type WorkspaceOptions, workspaceOptions } from "./options.js";

/** Stands in for the database when no SQLite engine can be loaded: every request answers why. */
const unavailableEngine = (why: string): SqlEngine => ({
  label: "the database (unavailable: see the error)",
  file: "",
  writable: false,
  engine: "none",
  run: () => Promise.reject(new WorkspaceError(why)),
  close: async () => {},
});

export interface WorkspaceServer extends ServerHandle {
  /** Stops the file watchers and the SQLite process, and removes the sample database. */
  close(): Promise<void>;
}

/**
 * The workspace server: files of the given roots, a SQLite database, the git history of
 * roots that are repositories, and prompts to work with them. Read-only unless
 * `allowWrite`; every path is checked against the roots (narrowed per client to the
 * client's own roots), every answer is bounded.
 */
export async function workspaceServer(options: WorkspaceOptions = {}): Promise<WorkspaceServer> {
  const allowWrite = options.allowWrite ?? false;
  const cluster = options.cluster;
  if (cluster && allowWrite && options.db === undefined)
    throw new WorkspaceError(
      "As a node of a cluster with --allow-write, the workspace needs --db: each node would write its own sample database, and the nodes would disagree",
    );
  const maxReadBytes = options.maxReadBytes ?? workspaceOptions.maxReadBytes.default;
  const roots = typeof options.root === "string" ? [options.root] : [...(options.root ?? [])];
  const areas = await configuredAreas(roots.length > 0 ? roots : [process.cwd()]);
  const repos = await findRepos(areas);
  // On a cluster, a client's roots are asked for every request: another node may be the
  // one told that they changed, and a copy kept here would go on serving the old ones.
  const scope = createRootScope(areas, { cacheRoots: !cluster });
  const sqlite = await loadSqlite(options.sqlite);
  const noSqlite = typeof sqlite === "string" ? sqlite : undefined;
  if (noSqlite && options.db !== undefined) throw new WorkspaceError(`--db ${options.db}: ${noSqlite}`);
  const engine =
    typeof sqlite === "string"
      ? undefined
      : openDatabase(sqlite, {
          ...(options.db !== undefined && { db: options.db }),
          allowWrite,
          queryTimeoutMs: options.queryTimeoutMs ?? workspaceOptions.queryTimeoutMs.default,
          maxAnswerBytes: options.maxAnswerBytes ?? workspaceOptions.maxAnswerBytes.default,
        });

  const server = createServer({
    name: "mcpkit-workspace",
    title: "mcpkit workspace",
    version: VERSION,
    description: "Files, a SQLite database and git history, behind path and SQL sandboxes",
    instructions: [
      `Files: the tools work inside ${areas.map((a) => a.path).join(", ")} (narrowed to your roots if you declare some; list_allowed_directories shows them). Relative paths start at the first directory. Reads over ${formatBytes(maxReadBytes)} are refused.`,
      allowWrite
        ? "Writing is allowed: write_file, edit_file (use dryRun to preview the diff), move_file, create_directory, write_query."
        : "The server is read-only: it was started without --allow-write.",
      engine
        ? `SQLite: ${engine.label}; list_tables, describe_table, read_query (read-only, enforced by the engine).`
        : `${noSqlite}.`,
      repos.length > 0
        ? `Git (read-only): ${repos.map((r) => r.name).join(", ")}; git_status, git_log, git_diff, git_branches and git:// resources.`
        : "",
    ]
      .filter(Boolean)
      .join("\n"),
    // The only request this server sends is roots/list, which a client answers at once.
    requestTimeoutMs: 10_000,
    ...cluster,
    onSession: (session) => scope.sessionStarted(session),
    onNotification: (notification, session) => {
      if (notification.method === "notifications/roots/list_changed") scope.rootsChanged(session);
    },
  });

  const access: FileAccess = { scope, maxReadBytes };
  registerReadTools(server, access);
  registerBrowseTools(server, access);
  registerSearchTools(server, access);
  if (allowWrite) registerWriteTools(server, access);
  registerFileResources(server, access);
  if (engine) {
    registerSqlTools(server, engine);
    registerSqlResources(server, engine);
  } else {
    // The tools are there, and say why they cannot work; the rest of the server serves on.
    registerSqlTools(server, unavailableEngine(noSqlite ?? "SQLite is unavailable"));
  }
  if (repos.length > 0) {
    registerGitTools(server, repos, scope);
    registerGitResources(server, repos, scope);
  }
  registerPrompts(server, { scope, repos, engine, maxReadBytes });

  const changes = cluster
    ? {
        // Every node watches the shared files and sees each change: each publishes it under
        // the key the changed file's state gives, and the bus delivers it once.
        changed: (path: string) =>
          changeKey(path)
            .then((key) => server.resourceUpdated(pathToFileURL(path).href, { key }))
            .catch((error: unknown) => server.onError(error)),
        listChanged: (directories: string[]) =>
          listChangeKey(directories)
            .then((key) => server.listChanged("resources", { key }))
            .catch((error: unknown) => server.onError(error)),
      }
    : {
        changed: (path: string) => server.resourceUpdated(pathToFileURL(path).href),
        listChanged: () => server.listChanged("resources"),
      };
  const watcher = watchAreas(
    areas,
    {
      ...changes,
      overBudget: (limit) =>
        process.stderr.write(`mcpkit: watching the first ${limit} directories only for resource subscriptions\n`),
    },
    options.maxWatchedDirectories ?? DEFAULT_MAX_WATCHED_DIRECTORIES,
  );
  // Serve only once the watchers are in place, so a subscription made at once sees changes.
  await watcher.ready;

  const summary = [
    `roots: ${areas.map((a) => a.path).join(", ")}${allowWrite ? " (read-write)" : " (read-only)"}`,
    engine
      ? `database: ${engine.file === engine.label ? engine.file : `${engine.label} at ${engine.file}`}`
      : `database: none (${noSqlite})`,
    ...(engine ? [`sql engine: ${engine.engine}`] : []),
    ...(repos.length > 0 ? [`git: ${repos.map((r) => `${r.name} (${r.top})`).join(", ")}`] : []),
  ].join("\n");

  return {
    server,
    summary,
    async close() {
      watcher.close();
      await engine?.close();
    },
  };
}
