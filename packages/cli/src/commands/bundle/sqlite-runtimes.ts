import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { workspaceNodeRange } from "@mcpkit/servers/workspace/runtimes";

/**
 * NODE_MODULE_VERSION (the ABI a native addon is built for) of each Node.js major mcpkit
 * runs on, as `process.versions.modules` gives it there.
 */
const ABI_MAJORS: Readonly<Record<number, number>> = { 115: 20, 127: 22, 131: 23, 137: 24, 141: 25 };

/** Where better-sqlite3's native build sits in its package. */
const BINARY = join("build", "Release", "better_sqlite3.node");

/** What the workspace bundle runs SQL with, on which Node.js versions. */
export interface SqliteRuntimes {
  /** The semver range of Node.js versions the bundle runs SQL on (its manifest's). */
  node: string;
  /** Whether the better-sqlite3 package goes into the bundle. */
  keepBetterSqlite: boolean;
  /** How the range comes about, in a line for the person bundling. */
  note: string;
}

/**
 * The Node.js versions a workspace bundle serves SQL on: node:sqlite's, and the major the
 * better-sqlite3 in `packageDir` was built for (read from its binary, which exports
 * node_register_module_v<ABI>). better-sqlite3 goes in only where it adds a Node.js that
 * node:sqlite does not serve: built for 24 or later, it would be dead weight, and tie the
 * bundle to this platform.
 */
export function sqliteRuntimes(packageDir: string | undefined): SqliteRuntimes {
  const binary = packageDir && join(packageDir, BINARY);
  if (!binary || !existsSync(binary)) {
    const node = workspaceNodeRange();
    return {
      node,
      keepBetterSqlite: false,
      note: `SQL through node:sqlite on Node.js ${node} (no better-sqlite3 here)`,
    };
  }
  const abi = Number(/node_register_module_v(\d+)/.exec(readFileSync(binary).toString("latin1"))?.[1]);
  const major = ABI_MAJORS[abi];
  if (major === undefined || major >= 24) {
    const node = workspaceNodeRange();
    const why =
      major === undefined
        ? `built for NODE_MODULE_VERSION ${abi || "unknown"}, a Node.js mcpkit does not know`
        : `built for Node.js ${major}, where node:sqlite serves`;
    return {
      node,
      keepBetterSqlite: false,
      note: `SQL through node:sqlite on Node.js ${node} (better-sqlite3 left out: ${why})`,
    };
  }
  const node = workspaceNodeRange(major);
  return {
    node,
    keepBetterSqlite: true,
    note: `SQL on Node.js ${node}: better-sqlite3 (built for Node.js ${major} on ${process.platform}) on ${major}${major === 22 ? " before 22.16" : ""}, node:sqlite on the others`,
  };
}
