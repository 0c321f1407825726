/**
 * The Node.js versions the workspace server runs SQL on, as a semver range (an MCP
 * Bundle's `compatibility.runtimes.node`). node:sqlite serves on 22.16 and later 22.x and
 * on 24 and later: 22.16 brought columns() and setReturnArrays(), which 23.x never got
 * (node-driver.ts checks each feature where it runs, not the version). better-sqlite3
 * serves on the one Node.js major its native build is for, when it is there.
 *
 * @param betterSqliteMajor - the Node.js major the better-sqlite3 beside the server was
 *   built for, or undefined when there is none
 */
export function workspaceNodeRange(betterSqliteMajor?: number): string {
  const ranges: string[] = [];
  if (betterSqliteMajor !== undefined && betterSqliteMajor < 22) ranges.push(`^${betterSqliteMajor}.0.0`);
  ranges.push(betterSqliteMajor === 22 ? "^22.0.0" : "^22.16.0");
  if (betterSqliteMajor === 23) ranges.push("^23.0.0");
  ranges.push(">=24.0.0");
  return ranges.join(" || ");
}
