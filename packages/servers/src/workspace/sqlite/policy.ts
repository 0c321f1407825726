import { WorkspaceError } from "../errors.js";
import type { Connection, Statement } from "./driver.js";
import type { ProgramStep } from "./program.js";
import { isBlankSql } from "./sql-text.js";

/**
 * Which SQL runs where, decided by SQLite itself rather than by looking at the text:
 * prepare() compiles exactly one statement (the driver refuses more), and the compiled
 * statement says whether it writes and whether it returns rows.
 */
function prepareOne(db: Connection, sql: string): Statement {
  if (typeof sql !== "string" || isBlankSql(sql)) throw new WorkspaceError("The SQL is empty");
  try {
    return db.prepare(sql);
  } catch (error) {
    if (error instanceof WorkspaceError) throw error;
    throw new WorkspaceError(`SQLite: ${(error as Error).message}`);
  }
}

/**
 * read_query: the statement must leave the database unchanged and return rows. The
 * second test refuses what SQLite counts as read-only but which changes the connection:
 * ATTACH (which could open any database file on disk), DETACH, and PRAGMA assignments
 * such as writable_schema. The connection itself is also opened read-only (no SQL can
 * change that) and query_only: what gets past this policy still cannot write.
 */
export function prepareRead(db: Connection, sql: string): Statement {
  const stmt = prepareOne(db, sql);
  let writes: boolean;
  try {
    writes = stmt.writes;
  } catch (error) {
    throw new WorkspaceError(`SQLite: ${(error as Error).message}`);
  }
  if (writes) {
    throw new WorkspaceError(
      "Refused: read_query is read-only and SQLite reports that this statement writes; use write_query (needs --allow-write)",
    );
  }
  if (stmt.columns.length === 0) {
    throw new WorkspaceError(
      "Refused: read_query runs statements that return rows (SELECT, WITH, EXPLAIN, read-only PRAGMAs); this one returns none (ATTACH, DETACH and PRAGMA assignments change the connection)",
    );
  }
  return stmt;
}

/**
 * write_query: anything that stays inside this database file. SQLite's own program for the
 * statement (EXPLAIN, which compiles but does not run it) shows whether it would attach
 * another file or VACUUM INTO one: both would write outside the database the server was
 * given.
 */
export function prepareWrite(db: Connection, sql: string, params: readonly unknown[]): Statement {
  const stmt = prepareOne(db, sql);
  let program: ProgramStep[];
  try {
    // The values change nothing in the program, but better-sqlite3 wants every placeholder bound to run it.
    program = db.prepare(`EXPLAIN ${sql}`).all(params) as unknown as ProgramStep[];
  } catch (error) {
    throw new WorkspaceError(`SQLite: ${(error as Error).message}`);
  }
  for (const op of program) {
    const fn = typeof op.p4 === "string" ? op.p4 : "";
    if ((op.opcode === "Function" || op.opcode === "PureFunc") && /^sqlite_(attach|detach)\(/.test(fn)) {
      throw new WorkspaceError("Refused: ATTACH and DETACH are not allowed; write_query works on this database only");
    }
    if (op.opcode === "Vacuum" && Number(op.p2) !== 0) {
      throw new WorkspaceError("Refused: VACUUM INTO writes another file; write_query works on this database only");
    }
  }
  return stmt;
}
