import { type AuthorizationServer, createAuthorizationServer, developmentUpstream } from "mcpkit/auth";
import { listen, routeByPath } from "mcpkit/http";
import { describe, expect, it } from "vitest";
import { crowdAddress, flood, newcomerSignsIn, registrationFlood, signInFlood } from "./flood.js";
import { type Harness, rawClient, registerFrom } from "./harness.js";
import { refusedAsJson, setup, times } from "./in-process.js";

// The flood of issue 34 against the default limits, in memory (the Redis run is
// packages/redis/test/authorization-flood.test.ts): a crowd of addresses, each within its
// rate, cannot lock a new address out, no answer says to come back later than an hour, and
// what the server holds stays within its caps however long the crowd goes on.

/** The largest record a registration or sign-in keeps, characters: what the caps multiply (generous). */
const LARGEST_RECORD = 2000;

describe("a crowd of addresses flooding registrations and sign-ins (default limits, in memory)", () => {
  it("cannot lock a new address out, and what the server holds stays within its caps", async () => {
    const server = setup();
    await registrationFlood(server);
    // 10,000 registrations, all unused: the cap of unused ones, no more.
    const afterRegistrations = server.memory.held();
    expect(afterRegistrations.records).toBe(10_000);
    await newcomerSignsIn(server, "192.0.2.1");

    const crowdClient = await server.from(crowdAddress(999)).registered();
    await signInFlood(server, crowdClient);
    await newcomerSignsIn(server, "192.0.2.2");

    const held = server.memory.held();
    // Records: at most 10,000 unused registrations, 10,000 sign-ins under way (their consent
    // decisions), the newcomers' used clients and codes.
    expect(held.records).toBeLessThanOrEqual(20_010);
    expect(held.characters).toBeLessThanOrEqual(held.records * LARGEST_RECORD);
    // Pool members: those records', and the requests each rate remembers (20,000 each at most).
    expect(held.pooled).toBeLessThanOrEqual(20_010 + 2 * 20_000);

    // The crowd comes back when its rates allow, 10 minutes on: what it left has expired,
    // and the server holds no more than before.
    server.advance(600);
    await signInFlood(server, await server.from(crowdAddress(998)).registered());
    server.advance(3000);
    await registrationFlood(server);
    await newcomerSignsIn(server, "192.0.2.3");
    const later = server.memory.held();
    expect(later.records).toBeLessThanOrEqual(held.records + 1000);
    expect(later.pooled).toBeLessThanOrEqual(held.pooled + 1000);
  }, 180_000);
});

describe("a crowd of ever more addresses, each sending one request", () => {
  it("costs each rate no more than the 20,000 requests it remembers, and a caller sending more than the rest is still refused", async () => {
    const server = setup();
    const answers = await flood(25_000, 25, (i) => server.from(`10.${i >> 16}.${(i >> 8) & 255}.${i & 255}`).revoke());
    // Each is refused for what it is (an unknown client), none for a rate.
    expect(answers.statuses).toEqual({ 401: 25_000 });
    expect(server.memory.held()).toMatchObject({ records: 0, pooled: 20_000 });
    const heavy = server.from("203.0.113.7");
    await times(60, () => heavy.revoke());
    expect((await refusedAsJson(await heavy.revoke())).retryAfter).toBe(60);
    expect(server.memory.held().pooled).toBe(20_000);
  }, 60_000);
});

describe("the crowd over a real listener, behind a proxy it trusts", () => {
  it("is counted by the addresses the proxy forwards, and a new address still registers and signs in", async () => {
    let as: AuthorizationServer | undefined;
    const listening = await listen(
      routeByPath((path) => (as?.handles(path) ? as : undefined)),
      { trustProxy: { proxies: ["127.0.0.1"] } },
    );
    try {
      const issuer = listening.url.href.replace(/\/$/, "");
      const resource = `${issuer}/mcp`;
      as = createAuthorizationServer({
        issuer,
        resources: [resource],
        upstream: developmentUpstream(),
        limits: { maxUnusedClients: 200 },
        onError: () => {},
      });
      // 50 addresses × 20 registrations, each forwarded by the proxy (127.0.0.1): all registered, 200 kept.
      const statuses: number[] = [];
      for (let batch = 0; batch < 50; batch++)
        for (const answer of await Promise.all(
          Array.from({ length: 20 }, () =>
            registerFrom("127.0.0.1", issuer, { "x-forwarded-for": crowdAddress(batch) }),
          ),
        ))
          statuses.push(answer.status);
      expect(statuses).toEqual(Array(1000).fill(201));
      // Each of them is over its rate now, as counted by its forwarded address.
      expect((await registerFrom("127.0.0.1", issuer, { "x-forwarded-for": crowdAddress(7) })).status).toBe(429);
      // A new address (the proxy's own, here) registers, and its person signs in to a token.
      const client = rawClient({ issuer, resource } as Harness);
      const tokens = await client.signIn(await client.register());
      expect(tokens.token_type).toBe("Bearer");
    } finally {
      await listening.close();
    }
  }, 60_000);
});
