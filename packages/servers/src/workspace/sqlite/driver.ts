/**
 * What the workspace needs of a SQLite engine, whichever runs: Node's own `node:sqlite`
 * (node-driver.ts) or the better-sqlite3 package (better-driver.ts). The policy, the query
 * process and the sample database see only this.
 */

export type EngineName = "node:sqlite" | "better-sqlite3";

export interface Driver {
  readonly engine: EngineName;
  /** SQLite's version in this engine's build. */
  readonly version: string;
  /**
   * Opens an existing database file (or, with `create`, makes it). `readOnly` opens it with
   * SQLITE_OPEN_READONLY: SQLite refuses every write on that connection, whatever the SQL.
   */
  open(file: string, options: { readOnly: boolean; create?: boolean }): Connection;
}

export interface Connection {
  /**
   * Compiles exactly one statement: SQL with anything but blanks, comments and semicolons
   * after the first statement is refused (ONE_STATEMENT), never silently cut.
   */
  prepare(sql: string): Statement;
  /** Runs trusted SQL of our own (the sample database, pragmas). */
  exec(sql: string): void;
  close(): void;
}

export interface Statement {
  /** The names of the columns it returns; none for a statement that returns no rows. */
  readonly columns: string[];
  /**
   * Whether it changes the database, as SQLite's compiled program says
   * (sqlite3_stmt_readonly's answer, or the same reading of the program's opcodes).
   */
  readonly writes: boolean;
  /** Its rows one at a time, as arrays, integers as bigint (never rounded). */
  rows(params: readonly unknown[]): Iterable<unknown[]>;
  /** Its rows as objects by column name (for the server's own queries). */
  all(params?: readonly unknown[]): Record<string, unknown>[];
  run(params: readonly unknown[]): { changes: number; lastInsertRowid: number | bigint };
}

export const ONE_STATEMENT = "Refused: one statement at a time; send each statement in its own call";
