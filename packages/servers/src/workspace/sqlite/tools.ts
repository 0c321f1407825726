import type { McpServer } from "mcpkit/server";
import { structured } from "mcpkit/server";
import { z } from "zod";
import { formatBytes } from "../files/format.js";
import { LIMITS } from "../limits.js";
import type { SqlEngine } from "./engine.js";
import type { Rows, TableDescription, TableInfo, WriteOutcome } from "./protocol.js";
import { SCHEMA_URI } from "./resources.js";

const READ_ONLY = { readOnlyHint: true, idempotentHint: true, openWorldHint: false } as const;

const params = z
  .array(z.union([z.string(), z.number(), z.null()]))
  .max(100)
  .describe("Values for the ? placeholders, in order")
  .optional();

const withNote = (rows: Rows) =>
  rows.cutAtBytes !== undefined
    ? {
        ...rows,
        truncated: true,
        note: `The answer was cut at ${formatBytes(rows.cutAtBytes)} (--max-answer-bytes): ${rows.rows.length} row${rows.rows.length === 1 ? "" : "s"} shown, long values cut; select fewer columns, use substr() or length(), or add LIMIT/OFFSET`,
      }
    : rows.truncated
      ? {
          ...rows,
          note: `Only the first ${LIMITS.queryRows} rows are shown; add LIMIT/OFFSET or aggregate to see the rest`,
        }
      : rows;

/** list_tables, describe_table, read_query; write_query with --allow-write. */
export function registerSqlTools(server: McpServer, engine: SqlEngine): void {
  server.tool(
    "list_tables",
    {
      title: "List tables",
      description: `The tables and views of ${engine.label}.`,
      input: z.object({}),
      annotations: READ_ONLY,
    },
    async (_args, ctx) => structured({ tables: await engine.run<TableInfo[]>({ op: "tables" }, ctx.signal) }),
  );

  server.tool(
    "describe_table",
    {
      title: "Describe a table",
      description: "Columns, keys, indexes, the CREATE statement and (for tables) the row count.",
      input: z.object({ table: z.string().min(1).describe("A table or view name, from list_tables") }),
      annotations: READ_ONLY,
    },
    async ({ table }, ctx) =>
      structured({ ...(await engine.run<TableDescription>({ op: "describe", table }, ctx.signal)) }),
  );

  server.tool(
    "read_query",
    {
      title: "Run a read-only SQL query",
      description: `Runs one SELECT (or WITH, EXPLAIN, read-only PRAGMA) on ${engine.label}. The database engine refuses anything that writes: the connection is read-only. At most ${LIMITS.queryRows} rows.`,
      input: z.object({ sql: z.string().min(1).max(100_000).describe("One SQL statement"), params }),
      annotations: READ_ONLY,
    },
    async ({ sql, params: values }, ctx) => {
      const rows = await engine.run<Rows>(
        { op: "read", sql, params: values ?? [], maxRows: LIMITS.queryRows },
        ctx.signal,
      );
      return structured({ ...withNote(rows) });
    },
  );

  if (!engine.writable) return;
  server.tool(
    "write_query",
    {
      title: "Run a SQL statement that changes data",
      description: `Runs one INSERT, UPDATE, DELETE or DDL statement on ${engine.label}. ATTACH, DETACH and VACUUM INTO are refused: nothing is written outside this database.`,
      input: z.object({ sql: z.string().min(1).max(100_000).describe("One SQL statement"), params }),
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    },
    async ({ sql, params: values }, ctx) => {
      const outcome = await engine.run<WriteOutcome>(
        { op: "write", sql, params: values ?? [], maxRows: LIMITS.queryRows },
        ctx.signal,
      );
      // The schema may have changed (DDL): subscribers re-read it.
      server.resourceUpdated(SCHEMA_URI);
      return structured({ ...outcome });
    },
  );
}
