import { Worker } from "node:worker_threads";
import { WorkspaceError } from "../errors.js";
import type { Statement } from "./driver.js";
import { loadEngine } from "./native.js";
import { prepareRead, prepareWrite } from "./policy.js";
import type { ProcessData, QueryRequest, Rows, TableDescription, TableInfo, WriteOutcome } from "./protocol.js";

/**
 * The SQLite child process (engine.ts). Both engines are synchronous and have no
 * interrupt a runaway query could be stopped with, so it is stopped by ending the process
 * it runs in: the server kills it on timeout or cancellation and starts a fresh one.
 *
 * Reads go through a connection opened read-only (SQLITE_OPEN_READONLY, which no SQL can
 * undo) with PRAGMA query_only, so the engine refuses writes whatever the SQL; the writable
 * connection exists only with --allow-write. Answers are cut at the byte limit here,
 * before they are ever sent.
 */
const { engine, module, file, writable, maxAnswerBytes } = JSON.parse(process.argv[2] ?? "{}") as ProcessData;
// Rows go out twice in a tool answer (structured content and its JSON text): half each.
const maxBytes = Math.floor(maxAnswerBytes / 2);

// The server kills this process when it exits. Should it die without a word (SIGKILL),
// a thread of our own notices the new parent and ends us, even in the middle of a
// statement that blocks this thread for good.
new Worker(
  `const { workerData: parent } = require("node:worker_threads");
   setInterval(() => { if (process.ppid !== parent) process.kill(process.pid, "SIGKILL"); }, 250);`,
  { eval: true, workerData: process.ppid },
).unref();
process.on("disconnect", () => process.exit(0));

const driver = await loadEngine({ engine, ...(module !== undefined && { module }) });
const reader = driver.open(file, { readOnly: true });
reader.exec("PRAGMA query_only = ON");
const writer = writable ? driver.open(file, { readOnly: false }) : undefined;

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

/** About how many bytes a cell takes in the JSON answer. */
const sizeOf = (value: unknown) =>
  typeof value === "string" ? Buffer.byteLength(value) + 3 : String(JSON.stringify(value)).length + 1;

/** A value cut to about `bytes`, saying so. */
function cutValue(value: unknown, bytes: number): unknown {
  if (typeof value !== "string" || sizeOf(value) <= bytes) return value;
  return `${value.slice(0, Math.max(0, bytes))}… [cut: ${Buffer.byteLength(value)} bytes in all]`;
}

function collect(stmt: Statement, params: unknown[], maxRows: number): Rows {
  const columns = stmt.columns;
  const rows: unknown[][] = [];
  let truncated = false;
  let bytes = 0;
  let cutAtBytes: number | undefined;
  // iterate() steps row by row, so a huge result is never held whole.
  for (const row of stmt.rows(params)) {
    if (rows.length === maxRows) {
      truncated = true;
      break;
    }
    const cells = row.map(cell);
    const size = cells.reduce((sum: number, value) => sum + sizeOf(value), 2);
    if (bytes + size > maxBytes) {
      // The row that does not fit shows the start of its long values, in what is left.
      const share = Math.floor((maxBytes - bytes) / Math.max(1, cells.length));
      if (share > 0) rows.push(cells.map((value) => cutValue(value, share)));
      cutAtBytes = maxAnswerBytes;
      break;
    }
    bytes += size;
    rows.push(cells);
  }
  return { columns, rows, truncated, ...(cutAtBytes !== undefined && { cutAtBytes }) };
}

/** The rows of one of our own queries, as objects. */
const query = <T>(sql: string, ...params: unknown[]) => reader.prepare(sql).all(params) as T[];

function tables(): TableInfo[] {
  return query<TableInfo>(
    "SELECT name, type FROM sqlite_schema WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name",
  ).map(({ name, type }) => ({ name, type }));
}

function describe(table: string): TableDescription {
  const [found] = query<{ name: string; type: "table" | "view"; sql: string | null }>(
    "SELECT name, type, sql FROM sqlite_schema WHERE type IN ('table', 'view') AND name = ?",
    table,
  );
  if (!found) {
    const known = tables().map((t) => t.name);
    throw new WorkspaceError(`No table or view named "${table}"; there are: ${known.join(", ") || "none"}`);
  }
  const columns = query<{ name: string; type: string; notnull: number; dflt_value: unknown; pk: number }>(
    'SELECT name, type, "notnull", dflt_value, pk FROM pragma_table_info(?)',
    found.name,
  ).map((c) => ({ name: c.name, type: c.type, notNull: c.notnull === 1, default: c.dflt_value, primaryKey: c.pk > 0 }));
  const indexes = query<{ name: string; unique: number }>(
    'SELECT name, "unique" FROM pragma_index_list(?)',
    found.name,
  ).map((i) => ({ name: i.name, unique: i.unique === 1 }));
  const foreignKeys = query<{ from: string; table: string; to: string | null }>(
    'SELECT "from", "table", "to" FROM pragma_foreign_key_list(?)',
    found.name,
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
    description.rowCount = query<{ n: number }>(`SELECT count(*) AS n FROM ${quoted}`)[0]?.n ?? 0;
  }
  return description;
}

function schema(): string {
  const rows = query<{ sql: string }>(
    "SELECT sql FROM sqlite_schema WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY type = 'table' DESC, name",
  );
  const text = rows.map((row) => `${row.sql};`).join("\n\n");
  return Buffer.byteLength(text) > maxBytes ? String(cutValue(text, maxBytes)) : text;
}

function write(sql: string, params: unknown[], maxRows: number): WriteOutcome {
  if (!writer) throw new WorkspaceError("Refused: the server was started without --allow-write");
  const stmt = prepareWrite(writer, sql, params);
  if (stmt.columns.length > 0) {
    const returned = collect(stmt, params, maxRows);
    return { changes: returned.rows.length, lastInsertRowid: 0, returned };
  }
  const result = stmt.run(params);
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
      // Set again before each read: compiling `EXPLAIN PRAGMA query_only = 0`, which passes
      // the policy (it lists a program that writes nothing), turns it off.
      reader.exec("PRAGMA query_only = ON");
      return collect(prepareRead(reader, request.sql), request.params, request.maxRows);
    case "write":
      return write(request.sql, request.params, request.maxRows);
  }
}

process.send?.({ ready: true });
process.on("message", ({ id, request }: { id: number; request: QueryRequest }) => {
  try {
    process.send?.({ id, ok: true, value: handle(request) });
  } catch (error) {
    const message = error instanceof WorkspaceError ? error.message : `SQLite: ${(error as Error).message}`;
    // Compiling a statement can change the process before the policy refuses it: a PRAGMA
    // assignment takes effect as it compiles (query_only, temp_store_directory). A read
    // that failed retires this process; the next request starts a fresh one.
    process.send?.({ id, ok: false, message, ...(request.op === "read" && { retire: true }) });
  }
});
