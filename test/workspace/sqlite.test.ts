import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { SAMPLE_SQL } from "../../packages/servers/src/workspace/sqlite/sample.js";
import { call, closeAll, connectStdio, seedDatabase, textOf, waitFor, within } from "./helpers.js";

// The SQLite side of the workspace server, end to end: the sample database that makes
// `mcpkit serve workspace` work out of the box, a --db file, write_query with
// --allow-write, the schema as resources, analyze_data, and queries that are stopped.

let dir: string;
let root: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "mcpkit-ws-sql-"));
  root = join(dir, "root");
  mkdirSync(root);
});
afterEach(closeAll);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the sample database (no --db)", () => {
  it("answers list_tables, describe_table and read_query, and offers no write_query", async () => {
    const { client } = await connectStdio(["--root", root]);
    const tables = (await call(client, "list_tables")).structuredContent;
    expect(tables).toEqual({
      tables: [
        { name: "customers", type: "table" },
        { name: "order_totals", type: "view" },
        { name: "orders", type: "table" },
        { name: "products", type: "table" },
      ],
    });
    const orders = (await call(client, "describe_table", { table: "orders" })).structuredContent;
    expect(orders).toMatchObject({
      name: "orders",
      type: "table",
      rowCount: 8,
      columns: expect.arrayContaining([
        { name: "quantity", type: "INTEGER", notNull: true, default: null, primaryKey: false },
      ]),
      foreignKeys: expect.arrayContaining([{ column: "customer_id", references: "customers(id)" }]),
      indexes: [{ name: "orders_by_customer", unique: false }],
    });
    const missing = await call(client, "describe_table", { table: "nope" });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toMatch(
      /No table or view named "nope"; there are: customers, order_totals, orders, products/,
    );

    const query = await call(client, "read_query", {
      sql: "SELECT customer, sum(total_cents) AS spent FROM order_totals WHERE total_cents > ? GROUP BY customer ORDER BY spent DESC LIMIT 2",
      params: [1000],
    });
    expect(query.structuredContent).toEqual({
      columns: ["customer", "spent"],
      rows: [
        ["Grace Hopper", 35700],
        ["Alan Turing", 27900],
      ],
      truncated: false,
    });
    const blob = await call(client, "read_query", { sql: "SELECT x'00ff' AS b, 9007199254740993 AS big" });
    expect(blob.structuredContent).toMatchObject({ rows: [["<blob 2 bytes>", "9007199254740993"]] });
    const syntax = await call(client, "read_query", { sql: "SELEC 1" });
    expect(textOf(syntax)).toMatch(/^SQLite: near "SELEC": syntax error/);
    expect((await client.tools()).map((t) => t.name)).not.toContain("write_query");
  });

  it("cuts long results with a note", async () => {
    const { client } = await connectStdio(["--root", root]);
    const result = await call(client, "read_query", {
      sql: "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n LIMIT 100000) SELECT x FROM n",
    });
    const rows = result.structuredContent as { rows: unknown[]; truncated: boolean; note: string };
    expect(rows.rows).toHaveLength(500);
    expect(rows.truncated).toBe(true);
    expect(rows.note).toMatch(/Only the first 500 rows are shown/);
  });

  it("serves the schema as resources with completion, and starts an analysis with analyze_data", async () => {
    const { client } = await connectStdio(["--root", root]);
    const schema = await client.readResource("sqlite://schema");
    expect(schema.contents[0]).toMatchObject({ mimeType: "application/sql" });
    expect((schema.contents[0] as { text: string }).text).toContain("CREATE TABLE orders (");
    const uris = (await client.resources()).map((r) => r.uri);
    expect(uris).toEqual(expect.arrayContaining(["sqlite://schema", "sqlite://schema/customers"]));
    const table = await client.readResource("sqlite://schema/products");
    expect(JSON.parse((table.contents[0] as { text: string }).text)).toMatchObject({ name: "products", rowCount: 5 });
    await expect(client.readResource("sqlite://schema/nope")).rejects.toThrow(/No table or view named "nope"/);
    const completed = await client.complete({
      ref: { type: "ref/resource", uri: "sqlite://schema/{table}" },
      argument: { name: "table", value: "ord" },
    });
    expect(completed.completion.values).toEqual(["order_totals", "orders"]);

    const tables = await client.complete({
      ref: { type: "ref/prompt", name: "analyze_data" },
      argument: { name: "table", value: "c" },
    });
    expect(tables.completion.values).toEqual(["customers"]);
    const prompt = await client.getPrompt("analyze_data", { table: "customers" });
    expect(prompt.messages[0]?.content).toMatchObject({
      type: "resource",
      resource: { uri: "sqlite://schema/customers", mimeType: "application/json" },
    });
    expect(prompt.messages[1]?.content).toMatchObject({ type: "text", text: expect.stringMatching(/read_query/) });
    await expect(client.getPrompt("analyze_data", { table: "nope" })).rejects.toThrow(/No table or view named/);
  });

  it("removes the temporary sample database when the server exits", async () => {
    const ws = await connectStdio(["--root", root]);
    const file = await waitFor(() => /database: .* at (\S+\.db)/.exec(ws.stderr())?.[1], "the summary");
    expect(existsSync(file)).toBe(true);
    await ws.close();
    await within(
      waitFor(() => !existsSync(dirname(file)), "the sample database to be removed"),
      5000,
      "cleanup",
    );
  });
});

describe("a --db file with --allow-write", () => {
  it("writes with write_query, returns RETURNING rows, and tells schema subscribers", async () => {
    const db = join(dir, "shop.db");
    seedDatabase(db, SAMPLE_SQL);
    const { client } = await connectStdio(["--root", root, "--db", db, "--allow-write"], {
      protocolVersion: "2025-11-25",
    });
    const tools = Object.fromEntries((await client.tools()).map((t) => [t.name, t]));
    expect(tools.write_query?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(tools.read_query?.annotations).toMatchObject({ readOnlyHint: true });

    const inserted = await call(client, "write_query", {
      sql: "INSERT INTO customers (name, email, city, joined_at) VALUES (?, ?, ?, ?)",
      params: ["Barbara Liskov", "barbara@example.com", "Boston", "2024-10-01"],
    });
    expect(inserted.structuredContent).toEqual({ changes: 1, lastInsertRowid: "6" });
    const returning = await call(client, "write_query", {
      sql: "UPDATE products SET price_cents = price_cents + 100 WHERE category = 'hardware' RETURNING name, price_cents",
    });
    expect(returning.structuredContent).toMatchObject({
      returned: {
        rows: [
          ["Mechanical keyboard", 13000],
          ["USB-C cable", 1600],
        ],
      },
    });
    const read = await call(client, "read_query", { sql: "SELECT count(*) FROM customers" });
    expect(read.structuredContent).toMatchObject({ rows: [[6]] });

    const updates: string[] = [];
    client.on("notifications/resources/updated", (params) => updates.push(params.uri as string));
    await client.subscribe("sqlite://schema");
    await call(client, "write_query", { sql: "CREATE TABLE reviews (id INTEGER PRIMARY KEY, body TEXT)" });
    await within(
      waitFor(() => updates.includes("sqlite://schema"), "the schema update"),
      5000,
      "update",
    );
    expect((await call(client, "list_tables")).structuredContent).toMatchObject({
      tables: expect.arrayContaining([{ name: "reviews", type: "table" }]),
    });
    const bad = await call(client, "write_query", { sql: "INSERT INTO orders (customer_id) VALUES (1)" });
    expect(textOf(bad)).toMatch(/^SQLite: NOT NULL constraint failed/);
  });

  it("stops a query that the client cancels, and answers the next one at once", async () => {
    const db = join(dir, "cancel.db");
    seedDatabase(db, SAMPLE_SQL);
    const { client } = await connectStdio(["--root", root, "--db", db, "--query-timeout", "20000"]);
    const controller = new AbortController();
    const runaway = client.callTool(
      "read_query",
      { sql: "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT count(*) FROM n" },
      { signal: controller.signal },
    );
    runaway.catch(() => undefined);
    setTimeout(() => controller.abort(), 300);
    await expect(runaway).rejects.toThrow();
    // Had the query gone on, the next one would wait behind it for the 20 s limit.
    const started = Date.now();
    const next = await call(client, "read_query", { sql: "SELECT count(*) FROM orders" });
    expect(next.structuredContent).toMatchObject({ rows: [[8]] });
    expect(Date.now() - started).toBeLessThan(3000);
  });
});
