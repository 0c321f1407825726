import { Redis } from "ioredis";
import { createAuthorizationServer, developmentUpstream, protectedResource } from "mcpkit/auth";
import { createStreamableHttpHandler, listen } from "mcpkit/http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser } from "../../../test/authorization-server/browser.js";
import { rawClient, statusOf, whoamiServer } from "../../../test/authorization-server/harness.js";
import { RedisAuthorizationStore } from "../src/index.js";
import { type RunningRedis, startRedis } from "./redis-server.js";

// Two nodes of one authorization server behind a round-robin balancer, sharing a real
// redis-server: each request of a sign-in lands on the other node than the one before,
// and everything (the sign-in under way, the consent, the code, the signing keys, the
// refresh family) is found where it was not made.

let redis: RunningRedis;
const connections: Redis[] = [];
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  for (const c of connections) c.disconnect();
  await redis?.stop();
});

describe("an authorization server on two nodes sharing Redis", () => {
  it("signs in, refreshes and detects reuse with every request on the other node", async () => {
    const secret = "a secret both nodes share, 32 bytes or more";
    let nodes: {
      as: ReturnType<typeof createAuthorizationServer>;
      mcp: ReturnType<typeof createStreamableHttpHandler>;
    }[] = [];
    let turn = 0;
    const served: number[] = [];
    const listening = await listen({
      fetch: (request) => {
        const node = turn++ % 2;
        served.push(node);
        const { as, mcp } = nodes[node] as (typeof nodes)[number];
        return as.handles(new URL(request.url).pathname) ? as.fetch(request) : mcp.fetch(request);
      },
    });
    try {
      const issuer = listening.url.href.replace(/\/$/, "");
      const resource = `${issuer}/mcp`;
      nodes = [0, 1].map(() => {
        const connection = new Redis(redis.url, { maxRetriesPerRequest: 1 });
        connections.push(connection);
        const as = createAuthorizationServer({
          issuer,
          resources: [resource],
          upstream: developmentUpstream(),
          secret,
          store: new RedisAuthorizationStore(connection),
          onError: () => {},
        });
        const auth = protectedResource({ verifier: as.verifier(resource), resource, authorizationServers: [issuer] });
        return { as, mcp: createStreamableHttpHandler(whoamiServer(), { auth }) };
      });
      const h = { issuer, resource, otherResource: resource } as Parameters<typeof rawClient>[0];
      const client = rawClient(h, new Browser());
      const registered = await client.register();
      const tokens = await client.signIn(registered);
      // Both nodes served parts of it.
      expect(new Set(served)).toEqual(new Set([0, 1]));
      // Either node accepts the token (one signing key, from the store).
      expect(await statusOf(resource, { authorization: `Bearer ${tokens.access_token}` })).toBe(200);
      expect(await statusOf(resource, { authorization: `Bearer ${tokens.access_token}` })).toBe(200);
      const refresh = (token: string) =>
        client.token({ grant_type: "refresh_token", refresh_token: token, client_id: registered.client_id });
      const next = await refresh(tokens.refresh_token);
      expect(next.status).toBe(200);
      // The spent token replayed (on whichever node): the family ends on both.
      expect((await refresh(tokens.refresh_token)).body.error).toBe("invalid_grant");
      expect((await refresh(next.body.refresh_token as string)).body.error).toBe("invalid_grant");
      expect(await statusOf(resource, { authorization: `Bearer ${next.body.access_token}` })).toBe(401);
      expect(await statusOf(resource, { authorization: `Bearer ${next.body.access_token}` })).toBe(401);
    } finally {
      await Promise.all(nodes.map((n) => n.mcp.close()));
      await listening.close();
    }
  });

  it("counts a caller's requests and the registrations kept across nodes: a limit reached on one holds on the other", async () => {
    const issuer = "http://127.0.0.1:9";
    const prefix = `limits-${Date.now()}:`;
    const nodes = [0, 1].map(() => {
      const connection = new Redis(redis.url, { maxRetriesPerRequest: 1 });
      connections.push(connection);
      return createAuthorizationServer({
        issuer,
        resources: [`${issuer}/mcp`],
        upstream: developmentUpstream(),
        secret: "a secret both nodes share, 32 bytes or more",
        store: new RedisAuthorizationStore(connection, { prefix }),
        limits: { register: { max: 3, windowSec: 60 }, maxUnusedClients: 5 },
        onError: () => {},
      });
    });
    let turn = 0;
    const ids: string[] = [];
    /** A registration from `address`, on the node whose turn it is. */
    const register = async (address: string) => {
      const node = nodes[turn++ % 2] as (typeof nodes)[number];
      const response = await node.fetch(
        new Request(`${issuer}/register`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            redirect_uris: ["http://127.0.0.1:4567/callback"],
            token_endpoint_auth_method: "none",
          }),
        }),
        { clientAddress: address },
      );
      if (response.status === 201) ids.push(((await response.json()) as { client_id: string }).client_id);
      return response.status;
    };
    /** Whether a node knows the client: /authorize goes on to sign in rather than saying it is not registered. */
    const known = async (clientId: string) => {
      const node = nodes[turn++ % 2] as (typeof nodes)[number];
      const url = new URL(`${issuer}/authorize`);
      url.searchParams.set("client_id", clientId);
      return !(await (await node.fetch(new Request(url), { clientAddress: "192.0.2.1" })).text()).includes(
        "is not registered here",
      );
    };
    const one = [];
    for (let i = 0; i < 4; i++) one.push(await register("203.0.113.7"));
    expect(one).toEqual([201, 201, 201, 429]);
    expect(await register("203.0.113.7")).toBe(429);
    // Five unused registrations kept in all: the sixth is registered, and the oldest of the
    // address holding the most (203.0.113.7, three) gives way, on whichever node.
    expect([await register("198.51.100.1"), await register("198.51.100.2"), await register("198.51.100.3")]).toEqual([
      201, 201, 201,
    ]);
    const [oldest, ...rest] = ids;
    expect(await known(oldest as string)).toBe(false);
    for (const id of rest) expect(await known(id)).toBe(true);
  });
});
