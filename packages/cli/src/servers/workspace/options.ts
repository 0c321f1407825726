import type { ServerOptions } from "mcpkit/server";

/** What `mcpkit serve workspace` is told on the command line. */
export interface WorkspaceOptions {
  /** Directories the file tools may touch (default: the current directory). */
  roots?: string[];
  /** A SQLite database file; without it a small sample database is made in a temp directory. */
  db?: string;
  /** Registers the tools that change files and the database (off by default). */
  allowWrite?: boolean;
  /** The largest file a read returns, bytes (default 1 MiB). */
  maxReadBytes?: number;
  /**
   * How long one SQL statement may run, ms (default 5000): then the process running it is
   * killed, so the statement stops and its CPU is freed.
   */
  queryTimeoutMs?: number;
  /** The most bytes one SQL answer may take; past it rows are left out and long values cut, saying so (default 1 MiB). */
  maxAnswerBytes?: number;
  /** How many directories are watched for resource subscriptions (default 1000). */
  maxWatchedDirectories?: number;
  /**
   * Serve as one node of a cluster (`--redis`), on the bus and key every node shares.
   * Every node must see the same files at the same paths (one host, or a shared file
   * system). Then a client's roots are asked for on every request rather than kept (another
   * node may be the one told they changed), each file change is published under a key
   * its file's state gives (every node sees it; the bus delivers it once), and
   * `allowWrite` needs `db` (each node would write its own sample database).
   */
  cluster?: Pick<ServerOptions, "eventBus" | "requestStateKey">;
}

export const DEFAULT_MAX_READ_BYTES = 1024 * 1024;
export const DEFAULT_QUERY_TIMEOUT_MS = 5000;
export const DEFAULT_MAX_ANSWER_BYTES = 1024 * 1024;
export const DEFAULT_MAX_WATCHED_DIRECTORIES = 1000;

/**
 * Bounds on what one request may produce. Big answers are cut with a note saying so,
 * rather than refused, so the model can narrow its request.
 */
export const LIMITS = {
  /** Entries of one list_directory answer. */
  listEntries: 1000,
  /** Entries of one directory_tree answer. */
  treeEntries: 2000,
  /** Deepest directory_tree. */
  treeDepth: 20,
  /** Paths one search_files answer returns. */
  searchResults: 500,
  /** Matching lines one search_content answer returns. */
  contentMatches: 200,
  /** Directory entries one walk may visit (search, resources/list). */
  walkEntries: 20_000,
  /** Bytes one search_content call reads in all. */
  searchBytes: 64 * 1024 * 1024,
  /** Files in one read_multiple_files call. */
  filesPerRead: 25,
  /** Files resources/list shows. */
  listedResources: 500,
  /** Rows one query returns. */
  queryRows: 500,
  /** Bytes of git output one answer keeps. */
  gitOutputBytes: 512 * 1024,
  /** How long one git command may run, ms. */
  gitTimeoutMs: 10_000,
  /** Characters of one search_content line shown. */
  lineChars: 240,
} as const;

/** Directories that walks (tree, search, listing, watching) step over: noise, not content. */
export const SKIPPED_DIRECTORIES: ReadonlySet<string> = new Set([".git", "node_modules"]);
