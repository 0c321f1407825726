// The workload scenario's local HTTP API: a product catalogue of 100 products on node:http,
// GET /products/<id> answered with JSON. The same process for every implementation measured.
import { createServer } from "node:http";
import { ready } from "./lib/control.mjs";

const products = new Map(
  Array.from({ length: 100 }, (_, i) => [
    `p${i}`,
    JSON.stringify({ id: `p${i}`, name: `Product ${i}`, price: (i * 1.25 + 3).toFixed(2), stock: (i * 7) % 50 }),
  ]),
);

const server = createServer((req, res) => {
  const match = /^\/products\/([^/?]+)$/.exec(req.url ?? "");
  const body = match ? products.get(decodeURIComponent(match[1])) : undefined;
  if (req.method !== "GET" || body === undefined) return res.writeHead(404).end();
  res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) }).end(body);
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => ready(server));
