import { parentPort, workerData } from "node:worker_threads";
import Database from "better-sqlite3";
import { WorkspaceError } from "../errors.js";
import { prepareRead, prepareWrite } from "./policy.js";
import type { QueryRequest, Rows, TableDescription, TableInfo, WorkerData, WriteOutcome } from "./protocol.js";

/**
 * The SQLite worker thread. better-sqlite3 is synchronous and SQLite's progress callback
 * is compiled out, so a runaway query can only be stopped by ending the thread it runs
 * on: the server does that on timeout or cancellation and starts a fresh worker.
 *
 * Reads go through a connection opened read-only with PRAGMA query_only, so the engine
 * refuses writes whatever the SQL; the writable connection exists only with --allow-write.
 */
const { file, writable } = workerData as WorkerData;
const reader = new Database(file, { readonly: true, fileMustExist: true });
reader.pragma("query_only = ON");
const writer = writable ? new Database(file, { fileMustExist: true }) : undefined;

/** JSON-safe cell values: integers past 2^53 as strings (never rounded), blobs described, not sent. */
function cell(value: unknown): unknown {
  if (typeof value === "bigint") {
    return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER)
      ? Number(value)
      : value.toString();
  }
  if (value instanceof Uint8Array) return `<blob ${value.length} bytes>`;
  return value;
}

function collect(stmt: Database.Statement, params: unknown[], maxRows: number): Rows {
  stmt.raw(true).safeIntegers(true);
  const columns = stmt.columns().map((c) => c.name);
  const rows: unknown[][] = [];
  let truncated = false;
  // iterate() steps row by row, so a huge result is never held whole.
  for (const row of stmt.iterate(...params) as IterableIterator<unknown[]>) {
    if (rows.length === maxRows) {
      truncated = true;
      break;
    }
    rows.push(row.map(cell));
  }
  return { columns, rows, truncated };
}

function tables(): TableInfo[] {
  return reader
    .prepare(
      "SELECT name, type FROM sqlite_schema WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name",
    )
    .all() as TableInfo[];
}

function describe(table: string): TableDescription {
  const found = reader
    .prepare("SELECT name, type, sql FROM sqlite_schema WHERE type IN ('table', 'view') AND name = ?")
    .get(table) as { name: string; type: "table" | "view"; sql: string | null } | undefined;
  if (!found) {
    const known = tables().map((t) => t.name);
    throw new WorkspaceError(`No table or view named "${table}"; there are: ${known.join(", ") || "none"}`);
  }
  const columns = (
    reader.prepare('SELECT name, type, "notnull", dflt_value, pk FROM pragma_table_info(?)').all(found.name) as {
      name: string;
      type: string;
      notnull: number;
      dflt_value: unknown;
      pk: number;
    }[]
  ).map((c) => ({ name: c.name, type: c.type, notNull: c.notnull === 1, default: c.dflt_value, primaryKey: c.pk > 0 }));
  const indexes = (
    reader.prepare('SELECT name, "unique" FROM pragma_index_list(?)').all(found.name) as {
      name: string;
      unique: number;
    }[]
  ).map((i) => ({ name: i.name, unique: i.unique === 1 }));
  const foreignKeys = (
    reader.prepare('SELECT "from", "table", "to" FROM pragma_foreign_key_list(?)').all(found.name) as {
      from: string;
      table: string;
      to: string | null;
    }[]
  ).map((f) => ({ column: f.from, references: `${f.table}(${f.to ?? "rowid"})` }));
  const description: TableDescription = {
    name: found.name,
    type: found.type,
    sql: found.sql,
    columns,
    indexes,
    foreignKeys,
  };
  if (found.type === "table") {
    const quoted = `"${found.name.replaceAll('"', '""')}"`;
    description.rowCount = (reader.prepare(`SELECT count(*) FROM ${quoted}`).pluck().get() as number) ?? 0;
  }
  return description;
}

function schema(): string {
  const rows = reader
    .prepare(
      "SELECT sql FROM sqlite_schema WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY type = 'table' DESC, name",
    )
    .pluck()
    .all() as string[];
  return rows.map((sql) => `${sql};`).join("\n\n");
}

function write(sql: string, params: unknown[], maxRows: number): WriteOutcome {
  if (!writer) throw new WorkspaceError("Refused: the server was started without --allow-write");
  const stmt = prepareWrite(writer, sql, params);
  if (stmt.reader) {
    const returned = collect(stmt, params, maxRows);
    return { changes: returned.rows.length, lastInsertRowid: 0, returned };
  }
  const result = stmt.run(...params);
  return { changes: result.changes, lastInsertRowid: String(result.lastInsertRowid) };
}

function handle(request: QueryRequest): unknown {
  switch (request.op) {
    case "tables":
      return tables();
    case "describe":
      return describe(request.table);
    case "schema":
      return schema();
    case "read":
      return collect(prepareRead(reader, request.sql), request.params, request.maxRows);
    case "write":
      return write(request.sql, request.params, request.maxRows);
  }
}

parentPort?.on("message", ({ id, request }: { id: number; request: QueryRequest }) => {
  try {
    parentPort?.postMessage({ id, ok: true, value: handle(request) });
  } catch (error) {
    const message = error instanceof WorkspaceError ? error.message : `SQLite: ${(error as Error).message}`;
    parentPort?.postMessage({ id, ok: false, message });
  }
});
