import { fileURLToPath } from "node:url";
import { Client } from "mcpkit/client";
import { stdioClientTransport } from "mcpkit/stdio";
import { afterAll, describe, expect, it } from "vitest";
import {
  call,
  closeAll,
  connectStdio,
  MCPKIT_BIN,
  makeFixture,
  runCli,
  SERVER_NODE,
  textOf,
  within,
} from "./helpers.js";

// Issue #17, defect 4: a SQL answer is bounded in bytes, not only in rows, and says where
// it was cut. And better-sqlite3, an optional dependency, may be missing: the server
// serves without it, and only the SQL tools say why they cannot work.

afterAll(closeAll);

const size = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

describe("--max-answer-bytes", () => {
  it("cuts a 100 MB value to the default 1 MiB answer, saying so", async () => {
    const { client } = await connectStdio([]);
    const result = await call(client, "read_query", { sql: "SELECT hex(zeroblob(50000000)) AS h" });
    expect(result.isError).toBeFalsy();
    expect(size(result)).toBeLessThan(1.1 * 1024 * 1024);
    const answer = result.structuredContent as { rows: string[][]; truncated: boolean; note: string };
    expect(answer.truncated).toBe(true);
    expect(answer.note).toMatch(/^The answer was cut at 1 MiB \(--max-answer-bytes\): 1 row shown, long values cut/);
    expect(answer.rows[0]?.[0]).toMatch(/^0000+… \[cut: 100000000 bytes in all\]$/);
  }, 60_000);

  it("leaves out the rows past a smaller limit", async () => {
    const { client } = await connectStdio(["--max-answer-bytes", "8192"]);
    const result = await call(client, "read_query", {
      sql: "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n LIMIT 400) SELECT x, printf('%0100d', x) AS padded FROM n",
    });
    const answer = result.structuredContent as { rows: unknown[][]; note: string };
    expect(answer.rows.length).toBeGreaterThan(10);
    expect(answer.rows.length).toBeLessThan(400);
    expect(answer.rows.at(-1)?.[0]).toBe(answer.rows.length);
    expect(answer.note).toMatch(/cut at 8 KiB \(--max-answer-bytes\)/);
    expect(size(result)).toBeLessThan(8192 + 1024);
    const small = await call(client, "read_query", { sql: "SELECT 1 AS one" });
    expect(small.structuredContent).toEqual({ columns: ["one"], rows: [[1]], truncated: false });
  }, 30_000);

  it("takes a positive whole number only", async () => {
    const { code, stderr } = await runCli(["serve", "workspace", "--max-answer-bytes", "lots"]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/--max-answer-bytes must be a positive whole number, not "lots"/);
  });
});

describe("without better-sqlite3", () => {
  it("serves files, and the SQL tools say why they cannot work", async () => {
    const fx = makeFixture();
    const transport = stdioClientTransport({
      command: SERVER_NODE,
      args: [
        "--import",
        fileURLToPath(new URL("./fixtures/without-sqlite.mjs", import.meta.url)),
        MCPKIT_BIN,
        "serve",
        "workspace",
        "--root",
        fx.root,
      ],
      stderr: "pipe",
      killTimeoutMs: 500,
    });
    let stderr = "";
    transport.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    const client = new Client({ name: "no-sqlite", version: "0.0.0", timeoutMs: 10_000 });
    try {
      await within(client.connect(transport), 10_000, "connect without better-sqlite3");
      expect(textOf(await call(client, "read_file", { path: "README.md" }))).toMatch(/# Demo/);
      const names = (await client.tools()).map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining(["read_file", "list_tables", "read_query"]));
      const sql = await call(client, "read_query", { sql: "SELECT 1" });
      expect(sql.isError).toBe(true);
      expect(textOf(sql)).toMatch(/better-sqlite3 is not installed .*npm install better-sqlite3/);
      expect(client.instructions).toMatch(
        /SQLite is unavailable: Node.js v\d+\S* has no node:sqlite, and better-sqlite3 is not installed/,
      );
      expect(stderr).not.toMatch(/Error|at .*\.js:\d+/);
    } finally {
      await within(client.close(), 5000, "close").catch(() => undefined);
      fx.cleanup();
    }
  }, 30_000);
});
