// The workload scenario's tools, in the style of published MCP server benchmarks (TM Dev Lab,
// 2025–2026: Redis and an HTTP API behind the tools): every call does real I/O on loopback.
//   get_user      GET of a user record (JSON) the runner stored in Redis
//   add_to_cart   HINCRBY + HLEN on the user's cart in one MULTI (a write and a read)
//   get_product   a GET to the local product API (fetch, keep-alive) and its JSON parsed
// BENCH_REDIS_URL and BENCH_API_URL say where Redis and the API are. Every implementation
// runs these same functions; only the MCP framework around them differs.
import { createRequire } from "node:module";

// ioredis is @mcpkit/redis's dependency (the bench has no Redis client of its own).
const { Redis } = createRequire(new URL("../../../packages/redis/package.json", import.meta.url))("ioredis");

/** The Redis key prefix of the workload's data (bench/suites/workload.mjs seeds the users). */
export const PREFIX = "bench:workload:";

export async function workloadTools() {
  const redis = new Redis(process.env.BENCH_REDIS_URL, { lazyConnect: true });
  await redis.connect();
  const api = process.env.BENCH_API_URL;
  const id = (z) => z.string().min(1).max(64);
  const isId = (x) => typeof x === "string" && x.length > 0 && x.length <= 64;
  return [
    {
      name: "get_user",
      description: "A user's profile",
      inputSchema: { type: "object", properties: { user_id: { type: "string" } }, required: ["user_id"] },
      shape: (z) => ({ user_id: id(z) }),
      valid: (args) => isId(args?.user_id),
      run: async ({ user_id }) => (await redis.get(`${PREFIX}user:${user_id}`)) ?? `no user ${user_id}`,
    },
    {
      name: "add_to_cart",
      description: "Adds a product to a user's cart; answers how many products the cart holds",
      inputSchema: {
        type: "object",
        properties: {
          user_id: { type: "string" },
          product_id: { type: "string" },
          quantity: { type: "integer", minimum: 1 },
        },
        required: ["user_id", "product_id", "quantity"],
      },
      shape: (z) => ({ user_id: id(z), product_id: id(z), quantity: z.number().int().min(1) }),
      valid: (args) =>
        isId(args?.user_id) && isId(args.product_id) && Number.isInteger(args.quantity) && args.quantity >= 1,
      run: async ({ user_id, product_id, quantity }) => {
        const key = `${PREFIX}cart:${user_id}`;
        const [, [, size]] = await redis.multi().hincrby(key, product_id, quantity).hlen(key).exec();
        return `cart of ${user_id}: ${size} products`;
      },
    },
    {
      name: "get_product",
      description: "A product from the catalogue API",
      inputSchema: { type: "object", properties: { product_id: { type: "string" } }, required: ["product_id"] },
      shape: (z) => ({ product_id: id(z) }),
      valid: (args) => isId(args?.product_id),
      run: async ({ product_id }) => {
        const response = await fetch(`${api}/products/${encodeURIComponent(product_id)}`);
        if (!response.ok) return `no product ${product_id}`;
        const product = await response.json();
        return `${product.name}: ${product.price} (${product.stock} in stock)`;
      },
    },
  ];
}
