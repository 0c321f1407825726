import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  crowdAddress,
  newcomerSignsIn,
  registrationFlood,
  signInFlood,
} from "../../../test/authorization-server/flood.js";
import { setup } from "../../../test/authorization-server/in-process.js";
import { RedisAuthorizationStore } from "../src/index.js";
import { type RunningRedis, startRedis } from "./redis-server.js";

// The flood of issue 34 against an authorization server whose state is in a real
// redis-server (test/authorization-server/flood.test.ts is the in-memory run): a new
// address still registers and signs in, and what Redis holds stays within the caps.

let redis: RunningRedis;
let connection: Redis;
beforeAll(async () => {
  redis = await startRedis();
  connection = new Redis(redis.url, { maxRetriesPerRequest: 1 });
});
afterAll(async () => {
  connection?.disconnect();
  await redis?.stop();
});

/** Redis's memory in use, bytes. */
async function usedMemory(): Promise<number> {
  return Number(/used_memory:(\d+)/.exec(await connection.info("memory"))?.[1]);
}

describe("a crowd of addresses flooding an authorization server kept in Redis (default limits)", () => {
  it("cannot lock a new address out, and Redis holds no more than the caps allow", async () => {
    const before = await usedMemory();
    const server = setup({ store: new RedisAuthorizationStore(connection, { prefix: "flood:" }) });
    await registrationFlood(server);
    expect((await connection.keys("flood:auth:client:*")).length).toBe(10_000);
    await newcomerSignsIn(server, "192.0.2.1");
    await signInFlood(server, await server.from(crowdAddress(999)).registered());
    await newcomerSignsIn(server, "192.0.2.2");

    const keys = await connection.keys("flood:*");
    const of = (kind: string) => keys.filter((k) => k.startsWith(`flood:auth:${kind}:`)).length;
    // 10,000 unused registrations (and the newcomers' used clients), 10,000 sign-ins under way.
    expect(of("client")).toBeLessThanOrEqual(10_000 + 2);
    expect(of("request")).toBeLessThanOrEqual(10_000);
    // The rest: codes and grants of the two newcomers, signing keys, and four keys a pool.
    expect(keys.length - of("client") - of("request")).toBeLessThanOrEqual(40);
    // 20,000 records and about 40,000 pool members (the requests the rates remember
    // included), at most a KiB each: measured, about 32 MB.
    const grown = (await usedMemory()) - before;
    expect(grown).toBeLessThan(60_000 * 1024);
    // Every key expires: nothing the crowd left stays for good.
    const lasting = [];
    for (const key of keys) if ((await connection.pttl(key)) < 0 && !key.endsWith(":keys")) lasting.push(key);
    expect(lasting).toEqual([]);
  }, 240_000);
});
