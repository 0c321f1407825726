import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ProgramStep, programWrites } from "../../packages/servers/src/workspace/sqlite/program.js";

// node:sqlite does not expose sqlite3_stmt_readonly, so read_query reads the compiled
// program instead (sqlite/program.ts). Here both readings meet on one SQLite: for every
// kind of statement, the program's answer is SQLite's own (better-sqlite3's stmt.readonly).
// (An EXPLAIN is read as the statement it explains: sql-policy.test.ts.)

let dir: string;
let db: Database.Database;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "mcpkit-sql-program-"));
  db = new Database(join(dir, "main.db"));
  db.exec(`CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT UNIQUE);
    CREATE TABLE log (what TEXT);
    CREATE TRIGGER t_log AFTER INSERT ON t BEGIN INSERT INTO log VALUES (new.name); END;
    CREATE VIRTUAL TABLE docs USING fts5(body);
    INSERT INTO t (name) VALUES ('a');`);
});
afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const STATEMENTS = [
  "SELECT * FROM t",
  "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n LIMIT 5) SELECT x FROM n",
  "SELECT * FROM docs WHERE docs MATCH 'x'",
  "SELECT load_extension('x')",
  "INSERT INTO t (name) VALUES ('b')",
  "INSERT INTO t (name) VALUES ('b') RETURNING id",
  "INSERT OR IGNORE INTO t (name) VALUES ('a')",
  "INSERT INTO t (name) VALUES ('a') ON CONFLICT (name) DO UPDATE SET name = 'c'",
  "REPLACE INTO t (id, name) VALUES (1, 'z')",
  "UPDATE t SET name = 'y'",
  "DELETE FROM t",
  "INSERT INTO docs (body) VALUES ('text')",
  "CREATE TABLE u (x)",
  "CREATE TEMP TABLE u (x)",
  "CREATE INDEX t_name ON t (name)",
  "CREATE VIEW v AS SELECT 1",
  "CREATE VIRTUAL TABLE more USING fts5(x)",
  "DROP TABLE log",
  "DROP TABLE docs",
  "ALTER TABLE t ADD COLUMN extra TEXT",
  "ALTER TABLE t RENAME TO t2",
  "VACUUM",
  "VACUUM INTO '/nonexistent/copy.db'",
  "ANALYZE",
  "REINDEX",
  "PRAGMA journal_mode = WAL",
  "PRAGMA journal_mode",
  "PRAGMA wal_checkpoint",
  "PRAGMA user_version = 3",
  "PRAGMA user_version",
  "PRAGMA table_info(t)",
  "PRAGMA integrity_check",
  "PRAGMA incremental_vacuum",
  "PRAGMA optimize",
  "BEGIN",
  "BEGIN IMMEDIATE",
  "SAVEPOINT s",
  "ATTACH ':memory:' AS m",
  "DETACH DATABASE m",
];

describe("the program's answer to 'does it write?'", () => {
  it.each(STATEMENTS)("is SQLite's own for %s", (sql) => {
    const stmt = db.prepare(sql);
    const program = db.prepare(`EXPLAIN ${sql}`).all() as ProgramStep[];
    expect(programWrites(program)).toBe(!stmt.readonly);
  });

  it("counts what changes a file, or a virtual table, and nothing else", () => {
    const step = (opcode: string, p2 = 0): ProgramStep => ({ opcode, p2, p4: null });
    expect(programWrites([step("Init"), step("Transaction", 0), step("OpenRead"), step("Halt")])).toBe(false);
    expect(programWrites([step("Transaction", 1)])).toBe(true);
    expect(programWrites([step("Transaction", 2)])).toBe(true);
    for (const opcode of ["Vacuum", "JournalMode", "Checkpoint", "VBegin", "VUpdate", "VCreate", "VDestroy", "VRename"])
      expect(programWrites([step(opcode)]), opcode).toBe(true);
  });
});
