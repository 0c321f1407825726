import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { betterDriver } from "../../packages/servers/src/workspace/sqlite/better-driver.js";
import type { Connection, Driver } from "../../packages/servers/src/workspace/sqlite/driver.js";
import { nodeDriver } from "../../packages/servers/src/workspace/sqlite/node-driver.js";
import { prepareRead, prepareWrite } from "../../packages/servers/src/workspace/sqlite/policy.js";

// Which SQL the workspace server's SQLite tools run, decided by SQLite's compiled statement
// (sqlite/policy.ts), in this process: the tools run it in a child process, where a
// mutation test cannot reach it. Each refusal here fails when its check is taken out.
// It runs on every engine this Node.js loads: better-sqlite3 where its build matches this
// Node.js (20 here), node:sqlite where Node has what the workspace needs (npm test runs
// this file again on Node 22 and 24); test/workspace/sql-attacks.test.ts runs the tools
// themselves on both.

/** The engines this process can load; at least one, or the file fails. */
function drivers(): Driver[] {
  const found: Driver[] = [];
  const builtIn = nodeDriver();
  if (typeof builtIn !== "string") found.push(builtIn);
  try {
    found.push(betterDriver(createRequire(import.meta.url)("better-sqlite3")));
  } catch {
    // Built for another Node.js: this Node's node:sqlite is the engine here.
  }
  if (found.length === 0) throw new Error(`No SQLite engine loads on Node.js ${process.version}`);
  return found;
}

const refusal = (run: () => unknown) => {
  try {
    run();
    return "allowed";
  } catch (error) {
    return (error as Error).message;
  }
};

describe.each(drivers().map((d) => [d.engine, d] as const))("on %s", (_engine, driver) => {
  let dir: string;
  let db: Connection;
  const count = () => db.prepare("SELECT count(*) AS n FROM t").all()[0]?.n;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "mcpkit-sql-policy-"));
    db = driver.open(join(dir, "main.db"), { readOnly: false, create: true });
    db.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO t (name) VALUES ('a'), ('b');");
  });
  afterAll(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  describe("read_query's policy (prepareRead)", () => {
    it("runs one statement that returns rows and changes nothing", () => {
      expect(prepareRead(db, "SELECT name FROM t ORDER BY id").all()).toEqual([{ name: "a" }, { name: "b" }]);
      expect([...prepareRead(db, "WITH x AS (SELECT 1 AS v) SELECT v FROM x").rows([])]).toEqual([[1n]]);
      expect(prepareRead(db, "PRAGMA table_info(t)").all()).toHaveLength(2);
      expect(prepareRead(db, "EXPLAIN SELECT * FROM t").columns).toContain("opcode");
      expect(prepareRead(db, "/* plan */ explain query plan SELECT * FROM t").columns).toContain("detail");
      // Blanks, comments and semicolons after the statement are no second statement.
      expect([...prepareRead(db, "SELECT 1; -- done\n ;; /* end */").rows([])]).toEqual([[1n]]);
    });

    it("refuses an empty statement, and more than one", () => {
      for (const sql of ["", "   \n", " -- only a comment", "/* and */ ;", undefined as unknown as string]) {
        expect(refusal(() => prepareRead(db, sql))).toBe("The SQL is empty");
      }
      for (const sql of ["SELECT 1; SELECT 2", "SELECT 1; -- x\nDELETE FROM t", "SELECT 1 /* a */; DROP TABLE t"]) {
        expect(refusal(() => prepareRead(db, sql))).toBe(
          "Refused: one statement at a time; send each statement in its own call",
        );
      }
      expect(count()).toBe(2);
    });

    it("passes on SQLite's own message for SQL it cannot compile", () => {
      expect(refusal(() => prepareRead(db, "SELEC 1"))).toMatch(/^SQLite: near "SELEC": syntax error/);
    });

    it("refuses statements that write, before they run", () => {
      const copy = join(dir, "copy.db");
      for (const sql of [
        "INSERT INTO t (name) VALUES ('c')",
        "INSERT INTO t (name) VALUES ('c') RETURNING id",
        "DELETE FROM t",
        "DROP TABLE t",
        "CREATE TABLE u (x)",
        "CREATE TEMP TABLE u (x)",
        "PRAGMA journal_mode = WAL",
        `VACUUM INTO '${copy}'`,
        "WITH x AS (SELECT 1) UPDATE t SET name = 'z'",
        // As SQLite counts it, an EXPLAIN writes when what it explains would.
        "EXPLAIN DELETE FROM t",
        "-- plan\nEXPLAIN QUERY PLAN DELETE FROM t",
      ]) {
        expect(
          refusal(() => prepareRead(db, sql)),
          sql,
        ).toMatch(/^Refused: read_query is read-only and SQLite reports/);
      }
      expect(existsSync(copy)).toBe(false);
      expect(count()).toBe(2);
    });

    it("refuses what SQLite counts as read-only but returns no rows: ATTACH, DETACH, PRAGMA assignments", () => {
      const other = join(dir, "other.db");
      for (const sql of [`ATTACH DATABASE '${other}' AS o`, "DETACH DATABASE main", "PRAGMA cache_size = 10"]) {
        expect(refusal(() => prepareRead(db, sql))).toMatch(/^Refused: read_query runs statements that return rows/);
      }
      expect(existsSync(other)).toBe(false);
    });
  });

  describe("write_query's policy (prepareWrite)", () => {
    it("runs a statement that stays inside this database, with its parameters", () => {
      prepareWrite(db, "INSERT INTO t (name) VALUES (?)", ["c"]).run(["c"]);
      expect(count()).toBe(3);
      expect(refusal(() => prepareWrite(db, "VACUUM", []))).toBe("allowed");
    });

    it("refuses ATTACH and DETACH, however they are written", () => {
      const other = join(dir, "attached.db");
      for (const sql of [`ATTACH DATABASE '${other}' AS o`, `attach '${other}' as o`, "DETACH DATABASE o"]) {
        expect(refusal(() => prepareWrite(db, sql, []))).toBe(
          "Refused: ATTACH and DETACH are not allowed; write_query works on this database only",
        );
      }
      // With the file name as a parameter: the program is the same.
      expect(refusal(() => prepareWrite(db, "ATTACH DATABASE ? AS o", [other]))).toMatch(/ATTACH and DETACH/);
      expect(existsSync(other)).toBe(false);
    });

    it("refuses VACUUM INTO another file", () => {
      const copy = join(dir, "copy.db");
      expect(refusal(() => prepareWrite(db, `VACUUM INTO '${copy}'`, []))).toBe(
        "Refused: VACUUM INTO writes another file; write_query works on this database only",
      );
      expect(existsSync(copy)).toBe(false);
    });

    it("refuses more than one statement, and reports SQL that does not compile", () => {
      expect(refusal(() => prepareWrite(db, "DELETE FROM t; DROP TABLE t", []))).toMatch(/one statement at a time/);
      expect(count()).toBe(3);
      expect(refusal(() => prepareWrite(db, "INSERT INTO nowhere VALUES (1)", []))).toMatch(
        /^SQLite: no such table: nowhere/,
      );
    });
  });

  describe("the read connection, as the query process opens it", () => {
    it("refuses every write itself, even one the policy never saw and with query_only turned off", () => {
      const reader = driver.open(join(dir, "main.db"), { readOnly: true });
      try {
        reader.exec("PRAGMA query_only = OFF");
        expect(refusal(() => reader.prepare("DELETE FROM t").run([]))).toMatch(/readonly database/);
        expect(refusal(() => reader.exec("CREATE TABLE u (x)"))).toMatch(/readonly database/);
      } finally {
        reader.close();
      }
      expect(count()).toBe(3);
    });

    it("opens no file that is not there", () => {
      const missing = join(dir, "missing.db");
      expect(refusal(() => driver.open(missing, { readOnly: true }))).toMatch(/unable to open database file/);
      expect(refusal(() => driver.open(missing, { readOnly: false }))).toMatch(/unable to open database file/);
      expect(existsSync(missing)).toBe(false);
    });
  });
});
