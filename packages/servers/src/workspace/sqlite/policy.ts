import type Database from "better-sqlite3";
import { WorkspaceError } from "../errors.js";

type Db = Database.Database;
type Statement = Database.Statement;

/**
 * Which SQL runs where, decided by SQLite itself rather than by looking at the text:
 * prepare() compiles exactly one statement (better-sqlite3 refuses more), and the
 * compiled statement says whether it writes (sqlite3_stmt_readonly) and returns rows.
 */
function prepareOne(db: Db, sql: string): Statement {
  if (typeof sql !== "string" || sql.trim() === "") throw new WorkspaceError("The SQL is empty");
  try {
    return db.prepare(sql);
  } catch (error) {
    const message = (error as Error).message;
    if (/more than one statement/i.test(message)) {
      throw new WorkspaceError("Refused: one statement at a time; send each statement in its own call");
    }
    throw new WorkspaceError(`SQLite: ${message}`);
  }
}

/**
 * read_query: the statement must leave the database unchanged and return rows. The
 * second test refuses what SQLite counts as read-only but which changes the connection:
 * ATTACH (which could open any database file on disk), DETACH, and PRAGMA assignments
 * such as writable_schema. The connection itself is also read-only and query_only, so
 * this is the second of three locks.
 */
export function prepareRead(db: Db, sql: string): Statement {
  const stmt = prepareOne(db, sql);
  if (!stmt.readonly) {
    throw new WorkspaceError(
      "Refused: read_query is read-only and SQLite reports that this statement writes; use write_query (needs --allow-write)",
    );
  }
  if (!stmt.reader) {
    throw new WorkspaceError(
      "Refused: read_query runs statements that return rows (SELECT, WITH, EXPLAIN, read-only PRAGMAs); this one returns none (ATTACH, DETACH and PRAGMA assignments change the connection)",
    );
  }
  return stmt;
}

interface ExplainRow {
  opcode: string;
  p2: number;
  p4: unknown;
}

/**
 * write_query: anything that stays inside this database file. SQLite's own program for the
 * statement (EXPLAIN, which compiles but does not run it) shows whether it would attach
 * another file or VACUUM INTO one: both would write outside the database the server was
 * given.
 */
export function prepareWrite(db: Db, sql: string, params: readonly unknown[]): Statement {
  const stmt = prepareOne(db, sql);
  let program: ExplainRow[];
  try {
    // The values change nothing in the program, but every placeholder must be bound to run it.
    program = db.prepare(`EXPLAIN ${sql}`).all(...params) as ExplainRow[];
  } catch (error) {
    throw new WorkspaceError(`SQLite: ${(error as Error).message}`);
  }
  for (const op of program) {
    const fn = typeof op.p4 === "string" ? op.p4 : "";
    if ((op.opcode === "Function" || op.opcode === "PureFunc") && /^sqlite_(attach|detach)\(/.test(fn)) {
      throw new WorkspaceError("Refused: ATTACH and DETACH are not allowed; write_query works on this database only");
    }
    if (op.opcode === "Vacuum" && op.p2 !== 0) {
      throw new WorkspaceError("Refused: VACUUM INTO writes another file; write_query works on this database only");
    }
  }
  return stmt;
}
