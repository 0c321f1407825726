import { Option } from "commander";
import { durationMs } from "../../commands/duration.js";
import { positive } from "../../commands/numbers.js";
import { UsageError } from "../../commands/usage-error.js";
import type { ServerFlags } from "../served.js";

/** `mcpkit serve workspace`'s own options, and the server they make. */
export const flags: ServerFlags = {
  description: "files, a SQLite database and git history, behind path and SQL sandboxes",
  exposes: "these files",
  // Every node must see the same files at the same paths (one host, or a shared file system).
  cluster: true,
  options: () => [
    new Option("--root <dir...>", "a directory the file tools may use (repeatable; default: .)"),
    new Option("--db <file>", "a SQLite database (default: a built-in sample database)"),
    new Option("--allow-write", "allow changing files and the database"),
    new Option("--max-read-bytes <n>", "the largest file a read returns (default 1048576)"),
    new Option(
      "--query-timeout <duration>",
      "how long one SQL statement may run before the process running it is killed: ms, or 5s (default 5000)",
    ),
    new Option("--max-answer-bytes <n>", "the most bytes one SQL answer may take (default 1048576)"),
  ],
  check(values, { cluster }) {
    if (cluster && values.allowWrite === true && values.db === undefined)
      throw new UsageError(
        "serve workspace --redis --allow-write needs --db: each node would write its own sample database, and the nodes would disagree",
      );
  },
  async create(values, { shared, cluster }) {
    const { createWorkspaceServer } = await import("./index.js");
    const number = (key: string, flag: string) =>
      values[key] === undefined ? undefined : positive(String(values[key]), flag);
    const maxReadBytes = number("maxReadBytes", "--max-read-bytes");
    const queryTimeoutMs =
      values.queryTimeout === undefined
        ? undefined
        : durationMs(String(values.queryTimeout), "--query-timeout", { bare: "ms" });
    const maxAnswerBytes = number("maxAnswerBytes", "--max-answer-bytes");
    return createWorkspaceServer({
      ...(Array.isArray(values.root) && { roots: values.root as string[] }),
      ...(values.db !== undefined && { db: String(values.db) }),
      allowWrite: values.allowWrite === true,
      ...(maxReadBytes !== undefined && { maxReadBytes }),
      ...(queryTimeoutMs !== undefined && { queryTimeoutMs }),
      ...(maxAnswerBytes !== undefined && { maxAnswerBytes }),
      ...(cluster && { cluster: shared }),
    });
  },
};
