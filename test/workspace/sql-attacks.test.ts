import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SAMPLE_SQL } from "../../packages/servers/src/workspace/sqlite/sample.js";
import { nodeRuntime } from "../../scripts/node-runtime.mjs";
import {
  type Connected,
  call,
  closeAll,
  connectStdio,
  type Fixture,
  makeFixture,
  SERVER_NODE,
  seedDatabase,
  snapshot,
  textOf,
  waitFor,
} from "./helpers.js";
import { WRITE_QUERY_REFUSALS, WRITING_SQL } from "./sql-corpus.js";

// The SQL attacks against each engine the workspace server runs SQL with, through the real
// binary: better-sqlite3 on the Node.js it was built for (SERVER_NODE, 20 here), Node's own
// node:sqlite on Node 22 and 24 (installed on demand: scripts/node-runtime.mjs). Each must
// refuse every attack in the same words, and leave the database file as it was.

const ENGINES: [string, string, () => string][] = [
  ["better-sqlite3", "better-sqlite3", () => SERVER_NODE],
  ["node:sqlite on Node 22", "node:sqlite", () => nodeRuntime(22)],
  ["node:sqlite on Node 24", "node:sqlite", () => nodeRuntime(24)],
];

describe.each(ENGINES)("%s", (_name, engine, runtime) => {
  let fx: Fixture & { db: string };
  let readOnly: Connected;
  let readWrite: Connected;
  let before: Record<string, string>;

  beforeAll(async () => {
    const node = runtime();
    const base = makeFixture();
    fx = { ...base, db: join(base.dir, "shop.db") };
    seedDatabase(fx.db, SAMPLE_SQL);
    before = snapshot(fx.dir);
    const args = ["--root", fx.root, "--db", fx.db, "--query-timeout", "1000"];
    [readOnly, readWrite] = await Promise.all([
      connectStdio(args, {}, node),
      connectStdio([...args, "--allow-write"], {}, node),
    ]);
  }, 180_000);

  afterAll(async () => {
    await closeAll();
    fx?.cleanup();
  });

  it(`runs SQL through ${engine}`, async () => {
    const summary = await waitFor(() => /sql engine: (.*)/.exec(readOnly.stderr())?.[1], "the summary");
    expect(summary).toMatch(new RegExp(`^SQLite 3\\.\\d+\\.\\d+ through ${engine}$`));
    const result = await call(readOnly.client, "read_query", {
      sql: "SELECT name, 9007199254740993 AS big, x'00ff' AS b FROM customers WHERE id = ?",
      params: [2],
    });
    expect(result.structuredContent).toEqual({
      columns: ["name", "big", "b"],
      rows: [["Grace Hopper", "9007199254740993", "<blob 2 bytes>"]],
      truncated: false,
    });
  });

  it.each(WRITING_SQL)("read_query refuses %s", async (_what, sql, wording) => {
    const result = await call(readOnly.client, "read_query", { sql: sql(fx) });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(wording);
  });

  it.each(WRITE_QUERY_REFUSALS)("write_query refuses %s", async (_what, sql, wording, leftBehind) => {
    const result = await call(readWrite.client, "write_query", { sql: sql(fx) });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(wording);
    if (leftBehind) expect(existsSync(leftBehind(fx))).toBe(false);
  });

  it("a refused PRAGMA assignment leaves nothing behind: the connection is read-only and query_only again", async () => {
    // A PRAGMA takes effect as it compiles, before the policy refuses it: the process that
    // compiled it is retired, and the next read runs in a fresh one.
    expect((await call(readOnly.client, "read_query", { sql: "PRAGMA query_only = 0" })).isError).toBe(true);
    const after = await call(readOnly.client, "read_query", { sql: "PRAGMA query_only" });
    expect(after.structuredContent).toMatchObject({ rows: [[1]] });
    // An EXPLAIN of it is allowed (it lists a program that writes nothing), and compiles it too.
    expect((await call(readOnly.client, "read_query", { sql: "EXPLAIN PRAGMA query_only = 0" })).isError).toBeFalsy();
    const next = await call(readOnly.client, "read_query", { sql: "PRAGMA query_only" });
    expect(next.structuredContent).toMatchObject({ rows: [[1]] });
  });

  it("stops a runaway query at the time limit, and answers the next one", async () => {
    const result = await call(readOnly.client, "read_query", {
      sql: "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT count(*) FROM n",
    });
    expect(textOf(result)).toMatch(/ran longer than 1000 ms and was stopped/);
    const next = await call(readOnly.client, "read_query", { sql: "SELECT count(*) FROM orders" });
    expect(next.structuredContent).toMatchObject({ rows: [[8]] });
  });

  it("leaves the database file and its folder as they were", async () => {
    await closeAll();
    expect(snapshot(fx.dir)).toEqual(before);
  });
});
