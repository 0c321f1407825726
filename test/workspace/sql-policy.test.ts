import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prepareRead, prepareWrite } from "../../packages/servers/src/workspace/sqlite/policy.js";

// Which SQL the workspace server's SQLite tools run, decided by SQLite's compiled statement
// (sqlite/policy.ts), in this process: the tools run it in a child process, where a
// mutation test cannot reach it. Each refusal here fails when its check is taken out.

let dir: string;
let db: Database.Database;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "mcpkit-sql-policy-"));
  db = new Database(join(dir, "main.db"));
  db.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO t (name) VALUES ('a'), ('b');");
});
afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const refusal = (run: () => unknown) => {
  try {
    run();
    return "allowed";
  } catch (error) {
    return (error as Error).message;
  }
};

describe("read_query's policy (prepareRead)", () => {
  it("runs one statement that returns rows and changes nothing", () => {
    expect(prepareRead(db, "SELECT name FROM t ORDER BY id").all()).toEqual([{ name: "a" }, { name: "b" }]);
    expect(prepareRead(db, "WITH x AS (SELECT 1 AS v) SELECT v FROM x").get()).toEqual({ v: 1 });
    expect(prepareRead(db, "PRAGMA table_info(t)").all()).toHaveLength(2);
  });

  it("refuses an empty statement, and more than one", () => {
    for (const sql of ["", "   \n", undefined as unknown as string]) {
      expect(refusal(() => prepareRead(db, sql))).toBe("The SQL is empty");
    }
    expect(refusal(() => prepareRead(db, "SELECT 1; SELECT 2"))).toBe(
      "Refused: one statement at a time; send each statement in its own call",
    );
  });

  it("passes on SQLite's own message for SQL it cannot compile", () => {
    expect(refusal(() => prepareRead(db, "SELEC 1"))).toMatch(/^SQLite: near "SELEC": syntax error/);
  });

  it("refuses statements that write", () => {
    for (const sql of ["INSERT INTO t (name) VALUES ('c')", "DELETE FROM t", "DROP TABLE t", "CREATE TABLE u (x)"]) {
      expect(refusal(() => prepareRead(db, sql))).toMatch(/^Refused: read_query is read-only and SQLite reports/);
    }
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
    prepareWrite(db, "INSERT INTO t (name) VALUES (?)", ["c"]).run("c");
    expect(db.prepare("SELECT count(*) AS n FROM t").get()).toEqual({ n: 3 });
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
    expect(refusal(() => prepareWrite(db, "INSERT INTO nowhere VALUES (1)", []))).toMatch(
      /^SQLite: no such table: nowhere/,
    );
    // EXPLAIN must bind every placeholder: a missing value is SQLite's error, not a crash.
    expect(refusal(() => prepareWrite(db, "INSERT INTO t (name) VALUES (?)", []))).toMatch(/^SQLite: /);
  });
});
