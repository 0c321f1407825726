import { Redis } from "ioredis";
import {
  authorizationStoreContract,
  eventBusContract,
  eventStoreContract,
  runContract,
  sessionStoreContract,
} from "mcpkit/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RedisAuthorizationStore, RedisEventBus, RedisEventStore, RedisSessionStore } from "../src/index.js";
import { type RunningRedis, startRedis } from "./redis-server.js";

let server: RunningRedis;
const connections: Redis[] = [];
/** A connection of its own: two of them are two nodes. */
const connect = () => {
  const redis = new Redis(server.url, { maxRetriesPerRequest: 1 });
  connections.push(redis);
  return redis;
};

beforeAll(async () => {
  server = await startRedis();
});
afterAll(async () => {
  for (const c of connections) c.disconnect();
  await server?.stop();
});

describe("session store contract: RedisSessionStore (two nodes, a real redis-server)", () => {
  runContract(
    sessionStoreContract(async ({ onError }) => {
      const a = new RedisSessionStore(connect(), { onError });
      const b = new RedisSessionStore(connect(), { onError });
      await Promise.all([a.ready, b.ready]);
      return { a, b, close: () => Promise.all([a.close(), b.close()]).then(() => {}) };
    }),
    it,
  );
});

describe("authorization store contract: RedisAuthorizationStore (two nodes, a real redis-server)", () => {
  runContract(
    authorizationStoreContract(() => ({
      a: new RedisAuthorizationStore(connect()),
      b: new RedisAuthorizationStore(connect()),
    })),
    it,
  );
});

describe("event store contract: RedisEventStore (a real redis-server)", () => {
  runContract(
    eventStoreContract(() => new RedisEventStore(connect())),
    it,
  );
});

describe("event bus contract: RedisEventBus (two nodes, a real redis-server)", () => {
  runContract(
    eventBusContract(async () => {
      const publisher = new RedisEventBus(connect(), { onError: () => {} });
      const subscriber = new RedisEventBus(connect(), { onError: () => {} });
      await Promise.all([publisher.ready, subscriber.ready]);
      return {
        publisher,
        subscriber,
        close: () => Promise.all([publisher.close(), subscriber.close()]).then(() => {}),
      };
    }),
    it,
  );
});

describe("RedisEventStore across nodes", () => {
  it("replays on one node a stream another node wrote, appends from both in one order", async () => {
    const a = new RedisEventStore(connect());
    const b = new RedisEventStore(connect());
    const note = (n: number) => ({ jsonrpc: "2.0" as const, method: "notifications/message", params: { n } });
    const prime = await a.append("cross-node", undefined);
    await a.append("cross-node", note(1));
    await b.append("cross-node", note(2));
    await a.append("cross-node", note(3));
    expect(await b.streamOf(prime)).toBe("cross-node");
    const seen: number[] = [];
    await b.replayAfter(prime, (_id, m) => seen.push((m as unknown as { params: { n: number } }).params.n));
    expect(seen).toEqual([1, 2, 3]);
  });

  it("bounds a stream's length and gives it an expiry", async () => {
    const redis = connect();
    const store = new RedisEventStore(redis, { maxEventsPerStream: 10, maxAgeMs: 60_000 });
    const note = { jsonrpc: "2.0" as const, method: "notifications/message", params: {} };
    for (let n = 0; n < 2000; n++) await store.append("bounded", note);
    const length = await redis.xlen("mcpkit:stream:bounded");
    // MAXLEN ~ trims whole macro nodes: about the bound, never the 2000 appended.
    expect(length).toBeLessThan(200);
    expect(length).toBeGreaterThanOrEqual(10);
    const ttl = await redis.pttl("mcpkit:stream:bounded");
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });

  it("trims events older than maxAgeMs", async () => {
    const redis = connect();
    const store = new RedisEventStore(redis, { maxAgeMs: 200 });
    const note = { jsonrpc: "2.0" as const, method: "notifications/message", params: {} };
    const first = await store.append("aged", note);
    await new Promise((r) => setTimeout(r, 300));
    // Approximate trimming keeps a macro node; the exact age bound is the key's expiry.
    await store.append("aged", note);
    await new Promise((r) => setTimeout(r, 300));
    expect(await store.streamOf(first)).toBeUndefined();
  });
});

describe("RedisSessionStore in Redis", () => {
  it("keeps a session as one key whose Redis ttl is its idle expiry", async () => {
    const redis = connect();
    const store = new RedisSessionStore(redis);
    await store.ready;
    const record = {
      id: "ttl-check",
      revision: "2025-11-25" as const,
      clientCapabilities: {},
      subscriptions: [],
      initialized: true,
    };
    await store.save(record, 30_000);
    const ttl = await redis.pttl("mcpkit:session:ttl-check");
    expect(ttl).toBeGreaterThan(25_000);
    expect(ttl).toBeLessThanOrEqual(30_000);
    await store.delete("ttl-check");
    expect(await redis.exists("mcpkit:session:ttl-check")).toBe(0);
    await store.close();
  });
});
