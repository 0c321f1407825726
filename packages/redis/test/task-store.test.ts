import { Redis } from "ioredis";
import { runContract, taskLeaseContract, taskNodesContract, taskStoreContract } from "mcpkit/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RedisTaskStore } from "../src/index.js";
import { type RunningRedis, startRedis } from "./redis-server.js";

let server: RunningRedis;
const connections: Redis[] = [];
/** A connection of its own: two of them are two nodes. */
const connect = () => {
  const redis = new Redis(server.url, { maxRetriesPerRequest: 1 });
  connections.push(redis);
  return redis;
};
let cases = 0;

/** Two stores on two connections (two nodes), under a prefix of their own so cases do not meet. */
async function twoNodes(now: () => number) {
  const prefix = `tasks-case-${++cases}:`;
  const a = new RedisTaskStore(connect(), { prefix, now });
  const b = new RedisTaskStore(connect(), { prefix, now });
  await Promise.all([a.ready, b.ready]);
  return { a, b, close: () => Promise.all([a.close(), b.close()]).then(() => {}) };
}

beforeAll(async () => {
  server = await startRedis();
});
afterAll(async () => {
  for (const c of connections) c.disconnect();
  await server?.stop();
});

describe("task store contract: RedisTaskStore (two nodes, a real redis-server)", () => {
  runContract(
    taskStoreContract(({ now }) => twoNodes(now)),
    it,
  );
});

describe("task leases: RedisTaskStore (two nodes, a real redis-server)", () => {
  runContract(
    taskLeaseContract(({ now }) => twoNodes(now)),
    it,
  );
});

describe("tasks across nodes: two servers, each on its own RedisTaskStore connection", () => {
  runContract(
    taskNodesContract(({ now }) => twoNodes(now)),
    it,
  );
});

describe("RedisTaskStore in Redis", () => {
  it("keeps a task as one key that Redis expires with the task's TTL, and none for a task kept until deleted", async () => {
    const redis = connect();
    const store = new RedisTaskStore(redis, { prefix: "ttl-check:" });
    await store.ready;
    const now = Date.now();
    const task = { method: "tools/call", status: "working" as const, createdAt: now, lastUpdatedAt: now };
    await store.create({ ...task, taskId: "short", ttlMs: 30_000 });
    await store.create({ ...task, taskId: "kept", ttlMs: null });
    const ttl = await redis.pttl("ttl-check:task:short");
    expect(ttl).toBeGreaterThan(25_000);
    expect(ttl).toBeLessThanOrEqual(30_000);
    expect(await redis.pttl("ttl-check:task:kept")).toBe(-1);
    // An update keeps the expiry where the TTL puts it, not a fresh one.
    await store.update("short", { statusMessage: "half way" });
    expect(await redis.pttl("ttl-check:task:short")).toBeLessThanOrEqual(30_000);
    await store.close();
  });
});
