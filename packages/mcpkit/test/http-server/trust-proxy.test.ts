import { request as httpRequest } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { createAuthorizationServer, developmentUpstream } from "../../src/auth/server/authorization/index.js";
import { createStreamableHttpHandler, routeByPath } from "../../src/endpoints/http/index.js";
import { RATE_LIMITED, rateLimit } from "../../src/middleware/index.js";
import { createServer } from "../../src/server/index.js";
import { type Listening, listen } from "../../src/transports/http/node.js";
import { clientAddressResolver } from "../../src/transports/http/trust-proxy.js";
import { meta } from "../modern/helpers.js";

// Behind a reverse proxy every connection comes from the proxy. `trustProxy` names the
// proxies whose X-Forwarded-For is believed, and only theirs: a caller reaching the server
// directly cannot choose its own address by sending the header. The address it yields is
// the one every per-client limit counts by (rate limits, session caps, task bounds, the
// authorization server's rates).

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

const headersOf = (values: Record<string, string>) => ({ get: (name: string) => values[name] ?? null });

describe("clientAddressResolver: the client's address behind trusted proxies", () => {
  const resolve = clientAddressResolver({ proxies: ["127.0.0.1", "10.0.0.0/8"] });
  const xff = (value: string) => headersOf({ "x-forwarded-for": value });

  it("takes the address a trusted proxy appended", () => {
    expect(resolve("127.0.0.1", xff("203.0.113.7"))).toBe("203.0.113.7");
    expect(resolve("::ffff:127.0.0.1", xff("203.0.113.7"))).toBe("203.0.113.7");
  });

  it("ignores the header from a peer it does not trust: the peer is the client", () => {
    expect(resolve("198.51.100.9", xff("203.0.113.7"))).toBe("198.51.100.9");
    expect(resolve("127.0.0.2", xff("203.0.113.7"))).toBe("127.0.0.2");
  });

  it("walks back through a chain of trusted proxies, never past the first address that is not one", () => {
    // The client forged "1.2.3.4"; its real address is the one the first proxy (10.1.1.1) saw.
    expect(resolve("127.0.0.1", xff("1.2.3.4, 203.0.113.7, 10.1.1.1"))).toBe("203.0.113.7");
    // Every hop trusted: the furthest one named.
    expect(resolve("127.0.0.1", xff("10.2.2.2, 10.1.1.1"))).toBe("10.2.2.2");
  });

  it("stops at an entry that is not an address, or at an absent header: the proxy is all that is known", () => {
    expect(resolve("127.0.0.1", xff("unknown"))).toBe("127.0.0.1");
    expect(resolve("127.0.0.1", xff("203.0.113.7, garbage"))).toBe("127.0.0.1");
    expect(resolve("127.0.0.1", headersOf({}))).toBe("127.0.0.1");
    expect(resolve(undefined, xff("203.0.113.7"))).toBeUndefined();
  });

  it("reads another header when told, and knows loopback and private ranges by name", () => {
    const realIp = clientAddressResolver({ proxies: ["loopback"], header: "X-Real-IP" });
    expect(realIp("127.0.0.5", headersOf({ "x-real-ip": "2001:db8::1" }))).toBe("2001:db8::1");
    expect(realIp("::1", headersOf({ "x-real-ip": "203.0.113.7" }))).toBe("203.0.113.7");
    const lan = clientAddressResolver({ proxies: ["private"] });
    expect(lan("192.168.1.1", xff("203.0.113.7"))).toBe("203.0.113.7");
    expect(lan("fd12::1", xff("203.0.113.7"))).toBe("203.0.113.7");
    expect(lan("203.0.113.1", xff("203.0.113.7"))).toBe("203.0.113.1");
  });

  it("refuses a proxy list it cannot read, when it is made", () => {
    expect(() => clientAddressResolver({ proxies: [] })).toThrow("name at least one proxy");
    expect(() => clientAddressResolver({ proxies: ["nginx"] })).toThrow('"nginx" is neither an IP address');
    expect(() => clientAddressResolver({ proxies: ["10.0.0.0/33"] })).toThrow('"10.0.0.0/33"');
  });
});

/** One POST from `localAddress` (any 127.0.0.0/8 address is this host's loopback). */
function post(
  url: URL,
  body: unknown,
  headers: Record<string, string>,
  localAddress: string,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: "POST", localAddress, headers: { "content-type": "application/json", ...headers } },
      (res) => {
        let text = "";
        res.on("data", (chunk: Buffer) => {
          text += chunk.toString();
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on("error", reject);
    req.end(JSON.stringify(body));
  });
}

describe("listen({ trustProxy }): every per-client limit counts the forwarded address", () => {
  /** An endpoint whose tools/call allows 2 per caller, and an authorization server allowing 2 registrations per caller. */
  async function endpoint(trustProxy?: { proxies: string[] }): Promise<URL> {
    const server = createServer({
      name: "limited",
      version: "1",
      middleware: [rateLimit({ perSecond: 0.001, burst: 2, exempt: (ctx) => ctx.method !== "tools/call" })],
    });
    server.tool("hit", {}, () => "ok");
    const mcp = createStreamableHttpHandler(server);
    const as = createAuthorizationServer({
      issuer: "http://127.0.0.1:9",
      resources: ["http://127.0.0.1:9/mcp"],
      upstream: developmentUpstream(),
      limits: { register: { max: 2, windowSec: 3600 } },
      onError: () => {},
    });
    const listening: Listening = await listen(
      routeByPath((path) => (path === "/mcp" ? mcp : as.handles(path) ? as : undefined)),
      { host: "127.0.0.1", port: 0, ...(trustProxy && { trustProxy }) },
    );
    closers.push(() => listening.close());
    return listening.url;
  }

  /** How many of three calls a caller got served: `from` is the connection, `forwarded` what it claims. */
  async function callsServed(base: URL, from: string, forwarded: string): Promise<number> {
    let served = 0;
    for (let id = 1; id <= 3; id++) {
      const answer = await post(
        new URL("/mcp", base),
        { jsonrpc: "2.0", id, method: "tools/call", params: { name: "hit", arguments: {}, _meta: meta() } },
        {
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2026-07-28",
          "mcp-method": "tools/call",
          "mcp-name": "hit",
          "x-forwarded-for": forwarded,
        },
        from,
      );
      if (!answer.text.includes(String(RATE_LIMITED))) served++;
    }
    return served;
  }

  async function registrations(base: URL, from: string, forwarded: string): Promise<number[]> {
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const answer = await post(
        new URL("/register", base),
        { redirect_uris: ["http://127.0.0.1:1/callback"], token_endpoint_auth_method: "none" },
        { "x-forwarded-for": forwarded },
        from,
      );
      statuses.push(answer.status);
    }
    return statuses;
  }

  it("through a trusted proxy, two callers are counted apart by rate limits and the authorization server", async () => {
    const base = await endpoint({ proxies: ["127.0.0.1"] });
    expect(await callsServed(base, "127.0.0.1", "203.0.113.1")).toBe(2);
    expect(await callsServed(base, "127.0.0.1", "203.0.113.2")).toBe(2);
    expect(await registrations(base, "127.0.0.1", "203.0.113.1")).toEqual([201, 201, 429]);
    expect(await registrations(base, "127.0.0.1", "203.0.113.2")).toEqual([201, 201, 429]);
  });

  it("a spoofed header from a peer that is not a trusted proxy is ignored", async () => {
    const base = await endpoint({ proxies: ["127.0.0.1"] });
    // 127.0.0.2 reaches the server directly and claims a new address each time: one caller all the same.
    expect(await callsServed(base, "127.0.0.2", "203.0.113.1")).toBe(2);
    expect(await callsServed(base, "127.0.0.2", "203.0.113.2")).toBe(0);
    expect(await registrations(base, "127.0.0.2", "203.0.113.1")).toEqual([201, 201, 429]);
    expect(await registrations(base, "127.0.0.2", "203.0.113.2")).toEqual([429, 429, 429]);
  });

  it("off by default: the header is never read", async () => {
    const base = await endpoint();
    expect(await callsServed(base, "127.0.0.1", "203.0.113.1")).toBe(2);
    expect(await callsServed(base, "127.0.0.1", "203.0.113.2")).toBe(0);
  });
});
