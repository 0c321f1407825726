import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Driver } from "./driver.js";

/** A small shop: enough for list_tables, joins and the analyze_data prompt to show something. */
export const SAMPLE_SQL = `
CREATE TABLE customers (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  email TEXT NOT NULL UNIQUE,
  city TEXT NOT NULL,
  joined_at TEXT NOT NULL
);
CREATE TABLE products (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  category TEXT NOT NULL,
  price_cents INTEGER NOT NULL CHECK (price_cents >= 0)
);
CREATE TABLE orders (
  id INTEGER PRIMARY KEY,
  customer_id INTEGER NOT NULL REFERENCES customers(id),
  product_id INTEGER NOT NULL REFERENCES products(id),
  quantity INTEGER NOT NULL CHECK (quantity > 0),
  ordered_at TEXT NOT NULL
);
CREATE INDEX orders_by_customer ON orders(customer_id);
CREATE VIEW order_totals AS
  SELECT o.id, c.name AS customer, p.name AS product, o.quantity * p.price_cents AS total_cents, o.ordered_at
  FROM orders o JOIN customers c ON c.id = o.customer_id JOIN products p ON p.id = o.product_id;

INSERT INTO customers (id, name, email, city, joined_at) VALUES
  (1, 'Ada Lovelace', 'ada@example.com', 'London', '2024-01-15'),
  (2, 'Grace Hopper', 'grace@example.com', 'New York', '2024-02-03'),
  (3, 'Alan Turing', 'alan@example.com', 'Manchester', '2024-03-22'),
  (4, 'Katherine Johnson', 'katherine@example.com', 'Hampton', '2024-05-09'),
  (5, 'Edsger Dijkstra', 'edsger@example.com', 'Eindhoven', '2024-06-30');
INSERT INTO products (id, name, category, price_cents) VALUES
  (1, 'Mechanical keyboard', 'hardware', 12900),
  (2, 'USB-C cable', 'hardware', 1500),
  (3, 'Code editor licence', 'software', 9900),
  (4, 'Database course', 'training', 24900),
  (5, 'Rubber duck', 'accessories', 500);
INSERT INTO orders (id, customer_id, product_id, quantity, ordered_at) VALUES
  (1, 1, 1, 1, '2024-07-01'),
  (2, 1, 5, 3, '2024-07-01'),
  (3, 2, 3, 1, '2024-07-04'),
  (4, 3, 4, 1, '2024-07-12'),
  (5, 4, 2, 4, '2024-08-02'),
  (6, 5, 5, 10, '2024-08-15'),
  (7, 2, 1, 2, '2024-09-01'),
  (8, 3, 2, 2, '2024-09-18');
`;

/** Writes the sample database to a fresh temp directory; `remove` deletes it again. */
export function createSampleDatabase(driver: Driver): { file: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), "mcpkit-sample-"));
  const file = join(dir, "sample.db");
  const db = driver.open(file, { readOnly: false, create: true });
  try {
    db.exec(SAMPLE_SQL);
  } finally {
    db.close();
  }
  return { file, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
