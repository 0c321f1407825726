import { type AuthorizationServerOptions, createAuthorizationServer, developmentUpstream } from "mcpkit/auth";
import { listen, routeByPath } from "mcpkit/http";
import { describe, expect, it } from "vitest";
import { registerFrom } from "./harness.js";
import { refusedAsJson, refusedAsPage, setup, signIn, times } from "./in-process.js";

// The authorization server's rates, on by default: a rate per caller (its IP address, an
// IPv6 address by its /64) for every endpoint that does work or keeps a record. A caller
// over its rate is refused with 429 and Retry-After (an hour at most) while every other
// caller goes on. What is kept is bounded apart (kept.test.ts, flood.test.ts). The
// server's clock is injected: a window passes when the test says so, never by sleeping.

describe("rates per caller, on by default", () => {
  it("refuses the 21st registration from one address within an hour, with 429 and Retry-After; another address still registers", async () => {
    const { from } = setup();
    await times(20, () => from("203.0.113.7").register());
    const refused = await refusedAsJson(await from("203.0.113.7").register());
    expect(refused.retryAfter).toBe(3600);
    expect(refused.description).toBe(
      "Too many registrations from your address (at most 20 in an hour): try again in 60 minutes",
    );
    expect((await from("198.51.100.7").register()).status).toBe(201);
  });

  it("lets the address register again once the oldest request leaves the window", async () => {
    const { from, advance } = setup();
    await times(10, () => from("203.0.113.7").register());
    advance(1800);
    await times(10, () => from("203.0.113.7").register());
    advance(1799);
    expect((await refusedAsJson(await from("203.0.113.7").register())).retryAfter).toBe(1);
    advance(1);
    await times(10, () => from("203.0.113.7").register());
    expect((await from("203.0.113.7").register()).status).toBe(429);
  });

  it("counts an IPv6 client by its /64, and an IPv4-mapped address as the IPv4 address", async () => {
    const { from } = setup({ limits: { register: { max: 2, windowSec: 60 } } });
    expect((await from("2001:db8:1:2::a").register()).status).toBe(201);
    expect((await from("2001:db8:1:2:ffff:ffff:ffff:b").register()).status).toBe(201);
    expect((await from("2001:db8:1:2::c").register()).status).toBe(429);
    expect((await from("2001:db8:1:3::a").register()).status).toBe(201);
    expect((await from("203.0.113.5").register()).status).toBe(201);
    expect((await from("::ffff:203.0.113.5").register()).status).toBe(201);
    expect((await from("203.0.113.5").register()).status).toBe(429);
  });

  it("limits each sign-in step per address (/authorize, /callback, /consent) with a 429 page, until the window passes", async () => {
    const { from, advance, client } = setup({
      limits: { signIn: { max: 2, windowSec: 600 } },
      // The client is never used here: kept past the window all the same.
      registration: { unusedClientTtlSec: 3600 },
    });
    const clientId = await client();
    const steps: ((c: ReturnType<typeof from>) => Promise<Response>)[] = [
      (c) => c.authorize(clientId),
      (c) => c.callback(),
      (c) => c.consent(),
    ];
    for (const [i, step] of steps.entries()) {
      const caller = from(`203.0.113.${i + 1}`);
      await times(2, () => step(caller));
      const refused = await refusedAsPage(await step(caller));
      expect(refused.retryAfter).toBe(600);
      expect(refused.page).toContain("Too many sign-in requests from your address (at most 2 in 10 minutes)");
    }
    // Nobody else is refused, and the first address is let in again after the window.
    expect((await from("198.51.100.7").authorize(clientId)).status).toBe(200);
    advance(600);
    expect((await from("203.0.113.1").authorize(clientId)).status).toBe(200);
  });

  it("limits token requests and revocations per address with an OAuth error answer", async () => {
    const { from, advance } = setup({
      limits: { token: { max: 3, windowSec: 60 }, revoke: { max: 2, windowSec: 60 } },
    });
    const a = from("203.0.113.7");
    await times(3, () => a.token());
    expect(await refusedAsJson(await a.token())).toEqual({
      retryAfter: 60,
      description: "Too many token requests from your address (at most 3 in a minute): try again in 60 seconds",
    });
    await times(2, () => a.revoke());
    expect((await refusedAsJson(await a.revoke())).description).toContain("Too many revocations");
    const b = from("198.51.100.7");
    await times(3, () => b.token());
    await times(2, () => b.revoke());
    advance(60);
    await times(3, () => a.token());
  });

  it("a caller over its sign-in rate cannot sign in, while a person at another address signs in all the way", async () => {
    const { from, client } = setup();
    const clientId = await client();
    const flooder = from("203.0.113.66");
    await times(60, () => flooder.authorize(clientId));
    expect((await flooder.authorize(clientId)).status).toBe(429);
    expect((await signIn(flooder.send, clientId)).ok).toBe(false);
    expect((await signIn(from("198.51.100.7").send, clientId)).ok).toBe(true);
  });
});

describe("turning limits off, and naming the address", () => {
  it("`false` turns one limit off and keeps the others; `limits: false` turns every one off", async () => {
    const one = setup({ limits: { register: false, token: { max: 1, windowSec: 60 } } });
    await times(25, () => one.from("203.0.113.7").register());
    await times(1, () => one.from("203.0.113.7").token());
    expect((await one.from("203.0.113.7").token()).status).toBe(429);
    const none = setup({ limits: false, registration: { clientTtlSec: 60 } });
    await times(25, () => none.from("203.0.113.7").register());
    await times(130, () => none.from("203.0.113.7").token());
  });

  it("without the client's address (a runtime that does not say), no rate applies, and such callers are one owner of what is kept", async () => {
    const { from, memory } = setup({ limits: { maxUnusedClients: 22, maxClientsPerCaller: 2 } });
    // 30 registrations, none refused: no rate, and no share of 2 (callers that cannot be told apart are many).
    await times(30, () => from(undefined).register());
    expect(memory.held().records).toBe(22);
  });

  it("never takes the address from X-Forwarded-For unless told to", async () => {
    const { from } = setup();
    const caller = from("203.0.113.7");
    for (let i = 0; i < 20; i++)
      expect((await caller.register({ "x-forwarded-for": `198.51.100.${i}` })).status).toBe(201);
    expect((await caller.register({ "x-forwarded-for": "198.51.100.99" })).status).toBe(429);
  });

  it("without the connection's address (a Worker), counts by the address the platform appended last to addressHeader", async () => {
    const { from } = setup({ limits: { addressHeader: "X-Forwarded-For", register: { max: 2, windowSec: 60 } } });
    const worker = from(undefined);
    const forged = (i: number) => ({ "x-forwarded-for": `10.0.0.${i}, 203.0.113.7` });
    expect((await worker.register(forged(1))).status).toBe(201);
    expect((await worker.register(forged(2))).status).toBe(201);
    expect((await worker.register(forged(3))).status).toBe(429);
    expect((await worker.register({ "x-forwarded-for": "198.51.100.7" })).status).toBe(201);
    // A header that names no address: no caller is known, only the totals apply.
    await times(3, () => worker.register({ "x-forwarded-for": "unknown" }));
    await times(3, () => worker.register());
  });

  it("given the connection's address, never believes addressHeader: a direct caller is counted by its own address, and onError is told once", async () => {
    const reported: unknown[] = [];
    const { from } = setup({ limits: { addressHeader: "x-forwarded-for" }, onError: (e) => reported.push(e) });
    const direct = from("203.0.113.7");
    // Each registration claims a new address; all of them are 203.0.113.7's.
    for (let i = 0; i < 20; i++)
      expect((await direct.register({ "x-forwarded-for": `198.51.100.${i}` })).status).toBe(201);
    expect((await direct.register({ "x-forwarded-for": "198.51.100.99" })).status).toBe(429);
    // Nor can it use up another address's rate by naming it.
    expect((await from("198.51.100.1").register()).status).toBe(201);
    expect(reported).toHaveLength(1);
    expect(String(reported[0])).toContain(
      'limits.addressHeader ("x-forwarded-for") is read only where fetch is given no',
    );
    expect(String(reported[0])).toContain("name it in trustProxy");
  });

  it("with limits.trustProxy, believes the forwarded address from the trusted proxy only", async () => {
    const reported: unknown[] = [];
    const { from } = setup({
      limits: { trustProxy: { proxies: ["loopback"] }, register: { max: 2, windowSec: 60 } },
      onError: (e) => reported.push(e),
    });
    const proxy = from("127.0.0.1");
    const forwarding = (address: string) => ({ "x-forwarded-for": address });
    // Two callers behind the proxy are two buckets, not the proxy's one.
    await times(2, () => proxy.register(forwarding("198.51.100.1")));
    expect((await proxy.register(forwarding("198.51.100.1"))).status).toBe(429);
    await times(2, () => proxy.register(forwarding("198.51.100.2")));
    // A client that wrote an address before the one the proxy appended is counted by the appended one.
    expect((await proxy.register(forwarding("198.51.100.2, 198.51.100.1"))).status).toBe(429);
    // A caller that is not the proxy is counted by its own address, whatever it claims.
    const direct = from("203.0.113.7");
    await times(2, () => direct.register(forwarding("198.51.100.3")));
    expect((await direct.register(forwarding("198.51.100.4"))).status).toBe(429);
    expect((await from("198.51.100.3").register()).status).toBe(201);
    expect(reported).toEqual([]);
  });

  it("refuses limits that cannot work when it is created", () => {
    const make = (limits: AuthorizationServerOptions["limits"]) => () => setup({ limits });
    expect(make({ register: { max: 0, windowSec: 60 } })).toThrow("limits.register.max must be a whole number");
    expect(make({ token: { max: 5, windowSec: 0 } })).toThrow("limits.token.windowSec must be a positive number");
    // No Retry-After over an hour: no window is longer.
    expect(make({ register: { max: 5, windowSec: 86_400 } })).toThrow(
      "limits.register.windowSec must be a positive number of seconds, an hour (3600) at most",
    );
    expect(make({ signIn: { max: 5, windowSec: 3600 } })).not.toThrow();
    expect(make({ maxClients: 1.5 })).toThrow("limits.maxClients must be a whole number");
    expect(make({ maxSignInsPerCaller: 0 })).toThrow("limits.maxSignInsPerCaller must be a whole number");
    expect(() => setup({ clientMetadataDocuments: { maxCached: 0 } })).toThrow(
      "clientMetadataDocuments.maxCached must be a whole number from 1",
    );
    expect(make({ trustProxy: { proxies: ["nginx"] } })).toThrow(
      'limits.trustProxy.proxies: "nginx" is neither an IP address',
    );
    expect(make({ trustProxy: { proxies: [] } })).toThrow("limits.trustProxy.proxies: name at least one proxy");
    expect(make({ trustProxy: { proxies: ["loopback"], header: "x forwarded for" } })).toThrow(
      'limits.trustProxy.header must be a header name such as x-forwarded-for, not "x forwarded for"',
    );
    expect(make({ addressHeader: "" })).toThrow(
      'limits.addressHeader must be a header name such as cf-connecting-ip, not ""',
    );
  });
});

describe("the Node adapter tells the server the client's address", () => {
  /** The server on a real listener (port 0), with `listen`'s options and the server's limits. */
  async function served(
    listenOptions: Parameters<typeof listen>[1],
    limits: AuthorizationServerOptions["limits"],
    onError: (error: unknown) => void = () => {},
  ) {
    let as: ReturnType<typeof createAuthorizationServer> | undefined;
    const listening = await listen(
      routeByPath((path) => (as?.handles(path) ? as : undefined)),
      listenOptions,
    );
    const issuer = listening.url.href.replace(/\/$/, "");
    as = createAuthorizationServer({
      issuer,
      resources: [`${issuer}/mcp`],
      upstream: developmentUpstream(),
      ...(limits !== undefined && { limits }),
      onError,
    });
    return { issuer, close: () => listening.close() };
  }

  /** Registers `n` times from `localAddress`, each time with the headers `headers(i)` gives; the statuses. */
  async function registrations(
    n: number,
    issuer: string,
    localAddress: string,
    headers: (i: number) => Record<string, string>,
  ) {
    const statuses: number[] = [];
    for (let i = 0; i < n; i++) statuses.push((await registerFrom(localAddress, issuer, headers(i))).status);
    return statuses;
  }
  const twentyThenRefused = [...Array(20).fill(201), 429];

  it("counts registrations through listen() and routeByPath by the connection's address", async () => {
    const { issuer, close } = await served({}, { register: { max: 3, windowSec: 3600 } });
    try {
      // 127.0.0.2 is this machine too (all of 127/8 is loopback), but another address to the server.
      expect(await registrations(4, issuer, "127.0.0.2", () => ({}))).toEqual([201, 201, 201, 429]);
      expect((await registerFrom("127.0.0.1", issuer)).status).toBe(201);
    } finally {
      await close();
    }
  });

  it("behind listen's trustProxy, counts callers through the proxy by the forwarded address, and a direct caller with a forged one by its own", async () => {
    const { issuer, close } = await served({ trustProxy: { proxies: ["127.0.0.1"] } }, undefined);
    try {
      // Two callers forwarded by the proxy (127.0.0.1) have a bucket each.
      expect(await registrations(21, issuer, "127.0.0.1", () => ({ "x-forwarded-for": "198.51.100.1" }))).toEqual(
        twentyThenRefused,
      );
      expect((await registerFrom("127.0.0.1", issuer, { "x-forwarded-for": "198.51.100.2" })).status).toBe(201);
      // 127.0.0.2 is not the proxy: its 21st registration is refused though each claims a new address.
      expect(await registrations(21, issuer, "127.0.0.2", (i) => ({ "x-forwarded-for": `203.0.113.${i}` }))).toEqual(
        twentyThenRefused,
      );
    } finally {
      await close();
    }
  });

  it("with addressHeader but no trusted proxy, a direct caller with a forged X-Forwarded-For is counted by its own address", async () => {
    const reported: unknown[] = [];
    const { issuer, close } = await served({}, { addressHeader: "x-forwarded-for" }, (e) => reported.push(e));
    try {
      expect(await registrations(21, issuer, "127.0.0.2", (i) => ({ "x-forwarded-for": `203.0.113.${i}` }))).toEqual(
        twentyThenRefused,
      );
      expect(reported.map(String)).toEqual([expect.stringContaining("limits.addressHeader")]);
    } finally {
      await close();
    }
  });
});
