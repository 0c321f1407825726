import type { Fixture } from "./helpers.js";

/**
 * The SQL attacks: what read_query and write_query must refuse, whichever engine runs
 * them. security.test.ts runs them with the rest of the sandbox corpus; sql-attacks.test.ts
 * on each engine.
 */

/** [what, the SQL, the refusal's wording]: SQL that writes, or reaches beyond the database, through read_query. */
export const WRITING_SQL: [string, (fx: Fixture) => string, RegExp][] = [
  ["INSERT", () => "INSERT INTO customers (name, email, city, joined_at) VALUES ('x', 'x@x', 'x', 'x')", /writes/],
  [
    "INSERT … RETURNING",
    () => "INSERT INTO products (name, category, price_cents) VALUES ('x', 'x', 1) RETURNING id",
    /writes/,
  ],
  ["UPDATE", () => "UPDATE products SET price_cents = 0", /writes/],
  ["DELETE", () => "DELETE FROM orders", /writes/],
  ["DROP TABLE", () => "DROP TABLE orders", /writes/],
  ["CREATE TABLE", () => "CREATE TABLE pwned (x)", /writes/],
  ["CREATE TEMP TABLE", () => "CREATE TEMP TABLE pwned (x)", /writes/],
  ["ATTACH a new file", (fx) => `ATTACH '${fx.dir}/attached.db' AS other`, /returns none \(ATTACH/],
  ["ATTACH an in-memory database", () => "ATTACH ':memory:' AS mem", /returns none/],
  ["PRAGMA writable_schema", () => "PRAGMA writable_schema = 1", /returns none/],
  ["PRAGMA query_only off", () => "PRAGMA query_only = 0", /returns none/],
  ["PRAGMA journal_mode", () => "PRAGMA journal_mode = WAL", /writes/],
  ["VACUUM INTO a file", (fx) => `VACUUM INTO '${fx.dir}/copy.db'`, /writes/],
  ["an EXPLAIN of a write", () => "EXPLAIN DELETE FROM orders", /writes/],
  ["two statements", () => "SELECT 1; DELETE FROM orders", /one statement at a time/],
  ["a statement after a comment", () => "SELECT 1; -- x\nDROP TABLE orders", /one statement at a time/],
  ["a statement after a block comment", () => "SELECT 1 /* ; */; DROP TABLE orders", /one statement at a time/],
  ["ATTACH after a SELECT", (fx) => `SELECT 1; ATTACH '${fx.dir}/attached.db' AS other`, /one statement/],
  ["load_extension", () => "SELECT load_extension('/tmp/evil.so')", /not authorized/],
];

/** [what, the SQL, the refusal's wording, a file that must not exist afterwards] through write_query. */
export const WRITE_QUERY_REFUSALS: [string, (fx: Fixture) => string, RegExp, ((fx: Fixture) => string) | undefined][] =
  [
    ["ATTACH", (fx) => `ATTACH '${fx.dir}/attached.db' AS a`, /ATTACH/, (fx) => `${fx.dir}/attached.db`],
    ["VACUUM INTO", (fx) => `VACUUM INTO '${fx.dir}/copy.db'`, /VACUUM INTO/, (fx) => `${fx.dir}/copy.db`],
    ["two statements", () => "DELETE FROM orders; DELETE FROM customers", /one statement/, undefined],
  ];
