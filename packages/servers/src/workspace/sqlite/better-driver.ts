import { existsSync } from "node:fs";
import type BetterSqlite3 from "better-sqlite3";
import { WorkspaceError } from "../errors.js";
import { type Connection, type Driver, ONE_STATEMENT, type Statement } from "./driver.js";

export type BetterSqliteConstructor = typeof BetterSqlite3;

/**
 * better-sqlite3 as a Driver. It refuses SQL with a second statement itself, and each
 * compiled statement says whether it writes (sqlite3_stmt_readonly) and returns rows.
 */
export function betterDriver(Database: BetterSqliteConstructor): Driver {
  const probe = new Database(":memory:");
  const version = String(probe.prepare("SELECT sqlite_version()").pluck().get());
  probe.close();
  return {
    engine: "better-sqlite3",
    version,
    open(file, { readOnly, create = false }) {
      // better-sqlite3's own words for a missing file ("unable to open database file")
      // name neither; the caller (engine.ts) checks the file first and says what is wrong.
      if (!create && !existsSync(file)) throw new Error(`unable to open database file: ${file}`);
      return connection(new Database(file, { readonly: readOnly, fileMustExist: !create }));
    },
  };
}

function connection(db: BetterSqlite3.Database): Connection {
  return {
    prepare(sql) {
      let stmt: BetterSqlite3.Statement;
      try {
        stmt = db.prepare(sql);
      } catch (error) {
        if (/more than one statement/i.test((error as Error).message)) throw new WorkspaceError(ONE_STATEMENT);
        throw error;
      }
      return statement(stmt);
    },
    exec(sql) {
      db.exec(sql);
    },
    close() {
      db.close();
    },
  };
}

function statement(stmt: BetterSqlite3.Statement): Statement {
  return {
    // columns() is for statements that return rows only.
    columns: stmt.reader ? stmt.columns().map((c) => c.name) : [],
    writes: !stmt.readonly,
    rows: (params) =>
      stmt
        .raw(true)
        .safeIntegers(true)
        .iterate(...params) as IterableIterator<unknown[]>,
    all: (params = []) => stmt.all(...params) as Record<string, unknown>[],
    run: (params) => stmt.run(...params),
  };
}
