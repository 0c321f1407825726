import type { McpServer } from "mcpkit/server";
import { asProtocolError } from "../errors.js";
import type { SqlEngine } from "./engine.js";
import type { TableDescription, TableInfo } from "./protocol.js";

export const SCHEMA_URI = "sqlite://schema";

/** The database schema as resources: all of it, and one table at a time (with completion). */
export function registerSqlResources(server: McpServer, engine: SqlEngine): void {
  server.resource(
    SCHEMA_URI,
    {
      name: "schema",
      title: "Database schema",
      description: `The CREATE statements of ${engine.label}`,
      mimeType: "application/sql",
    },
    async (uri, ctx) => {
      try {
        return { uri, mimeType: "application/sql", text: await engine.run<string>({ op: "schema" }, ctx.signal) };
      } catch (error) {
        throw asProtocolError(error, { uri });
      }
    },
  );

  const tableNames = async (signal?: AbortSignal) =>
    (await engine.run<TableInfo[]>({ op: "tables" }, signal)).map((t) => t.name);

  server.resourceTemplate(
    `${SCHEMA_URI}/{table}`,
    {
      name: "table-schema",
      title: "Table schema",
      description: "Columns, keys, indexes and row count of one table or view, as JSON",
      mimeType: "application/json",
      complete: { table: async (value) => (await tableNames()).filter((name) => name.startsWith(value)) },
      list: async (ctx) =>
        (await tableNames(ctx.signal)).slice(0, 200).map((name) => ({
          uri: `${SCHEMA_URI}/${encodeURIComponent(name)}`,
          name: `${name} schema`,
          mimeType: "application/json",
        })),
    },
    async (uri, { table }, ctx) => {
      try {
        const described = await engine.run<TableDescription>({ op: "describe", table: String(table) }, ctx.signal);
        return { uri, mimeType: "application/json", text: JSON.stringify(described, null, 2) };
      } catch (error) {
        throw asProtocolError(error, { uri });
      }
    },
  );
}
