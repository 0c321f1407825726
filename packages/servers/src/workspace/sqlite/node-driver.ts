import { existsSync } from "node:fs";
import { WorkspaceError } from "../errors.js";
import { type Connection, type Driver, ONE_STATEMENT, type Statement } from "./driver.js";
import { type ProgramStep, programWrites } from "./program.js";
import { explainedStatement, isBlankSql } from "./sql-text.js";

/** The part of node:sqlite the workspace uses (not every @types/node describes the module). */
interface NodeStatement {
  readonly sourceSQL: string;
  columns(): { name: string }[];
  setReturnArrays(on: boolean): void;
  setReadBigInts(on: boolean): void;
  iterate(...params: unknown[]): IterableIterator<unknown>;
  all(...params: unknown[]): unknown[];
  run(...params: unknown[]): { changes: number | bigint; lastInsertRowid: number | bigint };
}
interface NodeDatabase {
  prepare(sql: string): NodeStatement;
  exec(sql: string): void;
  close(): void;
  enableDefensive?(on: boolean): void;
}
interface NodeSqlite {
  DatabaseSync: new (file: string, options?: { readOnly?: boolean; timeout?: number }) => NodeDatabase;
  StatementSync?: { prototype: Partial<Record<keyof NodeStatement, unknown>> };
}

/** The statement methods the workspace needs: columns() from 22.16 and 23.11, setReturnArrays() from 22.16 and 24.0. */
const NEEDED = ["columns", "setReturnArrays", "setReadBigInts", "iterate"] as const;

/**
 * node:sqlite as a Driver, when this Node.js has all the workspace needs, checked feature by
 * feature (not by version number); else why not, in words.
 */
export function nodeDriver(): Driver | string {
  const sqlite = loadBuiltin();
  if (!sqlite) return `Node.js ${process.version} has no node:sqlite`;
  const prototype = sqlite.StatementSync?.prototype ?? {};
  const missing = NEEDED.filter((name) => typeof prototype[name] !== "function").map((n) => `StatementSync.${n}()`);
  if (missing.length === 0) missing.push(...behaviourGaps(sqlite));
  if (missing.length > 0) return `node:sqlite in Node.js ${process.version} lacks ${missing.join(", ")}`;
  const probe = new sqlite.DatabaseSync(":memory:");
  const [row] = probe.prepare("SELECT sqlite_version() AS version").all() as { version: string }[];
  probe.close();
  return {
    engine: "node:sqlite",
    version: String(row?.version),
    open(file, { readOnly, create = false }) {
      // node:sqlite has no "must exist": opened for writing, a missing file would be made.
      if (!create && !existsSync(file)) throw new Error(`unable to open database file: ${file}`);
      // Waits for another process's lock as better-sqlite3 does (5 s), rather than failing at once.
      const db = new sqlite.DatabaseSync(file, { readOnly, timeout: 5000 });
      // Where Node offers it (24.x), SQL cannot corrupt the file on purpose (writable_schema and the like).
      db.enableDefensive?.(true);
      return connection(db);
    },
  };
}

/** What the methods' presence does not show: readOnly honoured, and the text of the statement compiled. */
function behaviourGaps(sqlite: NodeSqlite): string[] {
  const gaps: string[] = [];
  const readOnly = new sqlite.DatabaseSync(":memory:", { readOnly: true });
  let written: boolean;
  try {
    readOnly.exec("CREATE TABLE probe (x)");
    written = true;
  } catch {
    written = false; // refused: the option is honoured
  } finally {
    readOnly.close();
  }
  if (written) gaps.push("the readOnly option");
  const db = new sqlite.DatabaseSync(":memory:");
  if (db.prepare("SELECT 1; SELECT 2").sourceSQL !== "SELECT 1;") gaps.push("StatementSync.sourceSQL");
  db.close();
  return gaps;
}

/**
 * node:sqlite, loaded without its one-time "SQLite is an experimental feature" warning
 * (Node 22): on the stderr of a stdio server, the client's log, it reads as a fault.
 * `getBuiltinModule` answers undefined where the module is missing or flagged.
 */
function loadBuiltin(): NodeSqlite | undefined {
  const get = (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule;
  if (typeof get !== "function") return undefined;
  const emit = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    const text = typeof warning === "string" ? warning : warning.message;
    if (/SQLite is an experimental feature/.test(text)) return;
    (emit as (...args: unknown[]) => void).call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  try {
    return get.call(process, "node:sqlite") as NodeSqlite | undefined;
  } catch {
    return undefined;
  } finally {
    process.emitWarning = emit;
  }
}

function connection(db: NodeDatabase): Connection {
  return {
    prepare(sql) {
      const stmt = db.prepare(sql);
      let first: string;
      try {
        first = stmt.sourceSQL;
      } catch {
        throw new WorkspaceError("The SQL is empty");
      }
      // node:sqlite compiles the first statement and drops the rest: a rest that is more
      // than blanks and comments is a second statement, refused here.
      if (!sql.startsWith(first) || !isBlankSql(sql.slice(first.length))) throw new WorkspaceError(ONE_STATEMENT);
      return statement(db, sql, stmt);
    },
    exec: (sql) => db.exec(sql),
    close: () => db.close(),
  };
}

function statement(db: NodeDatabase, sql: string, stmt: NodeStatement): Statement {
  const columns = stmt.columns().map((c) => c.name);
  let writes: boolean | undefined;
  return {
    columns,
    get writes() {
      writes ??= compiledWrites(db, sql);
      return writes;
    },
    rows(params) {
      stmt.setReturnArrays(true);
      stmt.setReadBigInts(true);
      return stmt.iterate(...params) as IterableIterator<unknown[]>;
    },
    all: (params = []) => stmt.all(...params) as Record<string, unknown>[],
    run(params) {
      const result = stmt.run(...params);
      return { changes: Number(result.changes), lastInsertRowid: result.lastInsertRowid };
    },
  };
}

/**
 * Whether the statement writes, read from its compiled program (EXPLAIN compiles the
 * statement and lists the program without running it): node:sqlite does not expose
 * sqlite3_stmt_readonly. As for SQLite, an EXPLAIN (or EXPLAIN QUERY PLAN) statement
 * writes when the statement it explains would: that one's program is read. Anything else
 * that cannot be explained is refused with SQLite's error.
 */
function compiledWrites(db: NodeDatabase, sql: string): boolean {
  const program = (text: string) => db.prepare(`EXPLAIN ${text}`).all() as ProgramStep[];
  try {
    return programWrites(program(sql));
  } catch (error) {
    const explained = explainedStatement(sql);
    if (explained === undefined) throw error;
    return programWrites(program(explained));
  }
}
