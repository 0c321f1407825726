import { UsageError } from "@mcpkit/servers/options";
import { workspaceOptions } from "@mcpkit/servers/workspace/options";
import { defineFlags } from "./served.js";

/** `mcpkit serve workspace`: its options are @mcpkit/servers' workspaceOptions. */
export const flags = defineFlags({
  description: "files, a SQLite database and git history, behind path and SQL sandboxes",
  exposes: "these files",
  // Every node must see the same files at the same paths (one host, or a shared file system).
  cluster: true,
  options: workspaceOptions,
  check(values, { cluster }) {
    if (cluster && values.allowWrite === true && values.db === undefined)
      throw new UsageError(
        "serve workspace --redis --allow-write needs --db: each node would write its own sample database, and the nodes would disagree",
      );
  },
  async create(values, { shared, cluster }) {
    const { workspaceServer } = await import("@mcpkit/servers/workspace");
    const sqlite = ownSqlite();
    return workspaceServer({ ...values, ...(sqlite && { sqlite }), ...(cluster && { cluster: shared }) });
  },
});

/**
 * better-sqlite3 as the command finds it: an optional dependency of @mcpkit/cli, which a
 * global install puts beside the command, where @mcpkit/servers (an optional peer there)
 * would not look. Undefined when it is not installed: the workspace then says so.
 */
function ownSqlite(): string | undefined {
  try {
    return import.meta.resolve("better-sqlite3");
  } catch {
    return undefined;
  }
}
