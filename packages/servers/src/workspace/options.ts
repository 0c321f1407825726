import type { ClusterOptions } from "../handle.js";
import { describeOptions, type OptionValues } from "../options/describe.js";

/** The workspace server's options: `mcpkit serve workspace`'s flags, a bundle's settings, docs/workspace.md's table. */
export const workspaceOptions = describeOptions({
  root: {
    type: "directories",
    help: "a directory the file tools may use",
    details: "A directory the file tools may use; repeat it or list several. Each must exist.",
    defaultText: "the current directory",
  },
  db: {
    type: "file",
    help: "a SQLite database",
    details:
      "A SQLite database. Without it, a small sample database (customers, products, orders) is made in a temporary directory and removed on exit, so everything works out of the box.",
    defaultText: "a built-in sample database",
  },
  allowWrite: {
    type: "switch",
    help: "allow changing files and the database",
    details:
      "Registers the tools that change things: `write_file`, `edit_file`, `move_file`, `create_directory`, `write_query`.",
  },
  maxReadBytes: { type: "number", help: "the largest file a read returns, in bytes", default: 1024 * 1024 },
  queryTimeoutMs: {
    type: "duration",
    flag: "--query-timeout",
    bare: "ms",
    help: "how long one SQL statement may run before the process running it is killed: ms, or 5s",
    details:
      "How long one SQL statement may run: milliseconds, or `5s`. Then the process running it is killed: the statement stops, its CPU is freed, and the next query starts a fresh process.",
    default: 5000,
  },
  maxAnswerBytes: {
    type: "number",
    help: "the most bytes one SQL answer may take",
    details:
      "The most bytes one SQL answer may take. Past it, later rows are left out and long values cut to their start, and the answer's `note` says so.",
    default: 1024 * 1024,
  },
});

/** What `workspaceServer` takes: the options above, and what only code can give. */
export interface WorkspaceOptions extends Omit<OptionValues<typeof workspaceOptions>, "root"> {
  /** The directories the file tools may touch (default: the current directory). */
  root?: string | readonly string[];
  /**
   * Where better-sqlite3 (an optional peer, the engine where Node's own node:sqlite falls
   * short) is imported from, when this package would not find it: a URL such as
   * `import.meta.resolve("better-sqlite3")` from code that does (default: "better-sqlite3",
   * found from here).
   */
  sqlite?: string;
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
  cluster?: ClusterOptions;
}
