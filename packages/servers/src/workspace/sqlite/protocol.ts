import type { EngineName } from "./driver.js";

/** The messages between the server and its SQLite child process (query-process.ts). */

export type QueryRequest =
  | { op: "tables" }
  | { op: "describe"; table: string }
  | { op: "schema" }
  | { op: "read"; sql: string; params: unknown[]; maxRows: number }
  | { op: "write"; sql: string; params: unknown[]; maxRows: number };

export interface TableInfo {
  name: string;
  type: "table" | "view";
}

export interface Rows {
  columns: string[];
  rows: unknown[][];
  /** More rows existed than maxRows. */
  truncated: boolean;
  /** The answer reached the byte limit (--max-answer-bytes): later rows were left out, long values cut. */
  cutAtBytes?: number;
}

export interface WriteOutcome {
  changes: number;
  lastInsertRowid: number | string;
  /** What a RETURNING clause gave back. */
  returned?: Rows;
}

export interface TableDescription {
  name: string;
  type: "table" | "view";
  sql: string | null;
  columns: { name: string; type: string; notNull: boolean; default: unknown; primaryKey: boolean }[];
  indexes: { name: string; unique: boolean }[];
  foreignKeys: { column: string; references: string }[];
  rowCount?: number;
}

export interface ProcessData {
  /** The engine the server chose (native.ts): the child runs on the same Node.js, so it has it too. */
  engine: EngineName;
  /** For better-sqlite3: where it is imported from, the module the server loaded. */
  module?: string;
  file: string;
  writable: boolean;
  /** The most bytes one answer may take (--max-answer-bytes). */
  maxAnswerBytes: number;
}

export type ProcessReply =
  | { id: number; ok: true; value: unknown }
  /** `retire`: the process may have been changed by what failed; the server starts a fresh one. */
  | { id: number; ok: false; message: string; retire?: boolean };
