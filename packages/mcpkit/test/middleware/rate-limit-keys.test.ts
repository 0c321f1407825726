import { request as httpRequest } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import type { MiddlewareContext } from "../../src/connection/middleware-chain.js";
import { createStreamableHttpHandler } from "../../src/endpoints/http/index.js";
import { principalKey, RATE_LIMITED, rateLimit } from "../../src/middleware/index.js";
import { createServer } from "../../src/server/index.js";
import { type Listening, listen } from "../../src/transports/http/node.js";
import { meta } from "../modern/helpers.js";

// rateLimit's default key is who calls, not which session: the principal, else the
// client's address (an IPv6 one by its /64). Opening sessions, or sending 2026-07-28
// requests that have none, buys no more; another address has a bucket of its own.

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function limitedEndpoint(): Promise<Listening> {
  const server = createServer({
    name: "limited",
    version: "1",
    middleware: [rateLimit({ perSecond: 0.001, burst: 10, exempt: (ctx) => ctx.method !== "tools/call" })],
  });
  server.tool("hit", {}, () => "ok");
  const listening = await listen(createStreamableHttpHandler(server), { host: "127.0.0.1", port: 0 });
  closers.push(() => listening.close());
  return listening;
}

/** One POST from `localAddress` (any 127.0.0.0/8 address is this host's loopback). */
function post(
  listening: Listening,
  body: unknown,
  headers: Record<string, string> = {},
  localAddress = "127.0.0.1",
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; json: () => unknown }> {
  const url = new URL(listening.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: "127.0.0.1",
        port: url.port,
        path: "/",
        method: "POST",
        localAddress,
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...headers,
        },
      },
      (res) => {
        let text = "";
        res.on("data", (chunk: Buffer) => {
          text += chunk.toString();
        });
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, json: () => JSON.parse(text) }),
        );
      },
    );
    req.on("error", reject);
    req.end(JSON.stringify(body));
  });
}

const hit = (id: number, extra: Record<string, unknown> = {}) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name: "hit", arguments: {}, ...extra },
});

/** A 2025-11-25 session opened from `address`; returns its headers. */
async function session(listening: Listening, address = "127.0.0.1") {
  const opened = await post(
    listening,
    {
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } },
    },
    {},
    address,
  );
  const headers = { "mcp-session-id": String(opened.headers["mcp-session-id"]), "mcp-protocol-version": "2025-11-25" };
  await post(listening, { jsonrpc: "2.0", method: "notifications/initialized" }, headers, address);
  return headers;
}

const refused = (answer: { json: () => unknown }) =>
  (answer.json() as { error?: { code: number } }).error?.code === RATE_LIMITED;

describe("rateLimit keys by caller, not by session", () => {
  it("a new session does not refill the bucket: 20 sessions of one address share its 10", async () => {
    const listening = await limitedEndpoint();
    let served = 0;
    for (let n = 0; n < 20; n++) {
      const headers = await session(listening);
      for (let i = 1; i <= 3; i++) if (!refused(await post(listening, hit(i), headers))) served++;
    }
    expect(served).toBe(10);
  });

  it("2026-07-28 requests without a token are counted per address: one caller cannot starve another", async () => {
    const listening = await limitedEndpoint();
    const modern = (id: number) => hit(id, { _meta: meta() });
    const headers = { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "hit" };
    let attacker = 0;
    for (let id = 1; id <= 40; id++) if (!refused(await post(listening, modern(id), headers))) attacker++;
    expect(attacker).toBe(10);
    let victim = 0;
    for (let id = 1; id <= 5; id++) if (!refused(await post(listening, modern(id), headers, "127.0.0.2"))) victim++;
    expect(victim).toBe(5);
  });

  it("keys an address by itself, an IPv6 one by its /64, a token by its principal whatever the address", () => {
    const ctx = (remoteAddress: string | undefined, principal?: unknown, sessionId?: string) =>
      ({ kind: "request", method: "tools/call", principal, sessionId, remoteAddress }) as MiddlewareContext & {
        remoteAddress?: string;
      };
    expect(principalKey(ctx("2001:db8:1:2::1", undefined, "s1"))).toBe("address:2001:db8:1:2::/64");
    expect(principalKey(ctx("2001:db8:1:2:ffff::9"))).toBe(principalKey(ctx("2001:db8:1:2::1")));
    expect(principalKey(ctx("2001:db8:1:3::1"))).not.toBe(principalKey(ctx("2001:db8:1:2::1")));
    expect(principalKey(ctx("::ffff:10.0.0.7"))).toBe("address:10.0.0.7");
    expect(principalKey(ctx("10.0.0.7", { issuer: "https://as.example", subject: "ada" }))).toBe(
      principalKey(ctx("10.0.0.8", { issuer: "https://as.example", subject: "ada" })),
    );
    expect(principalKey(ctx(undefined, undefined, "s1"))).toBe("session:s1");
  });

  it("two issuers' same subject are two callers: the key is the principal as the server sees it", async () => {
    const limit = rateLimit({ perSecond: 0.001, burst: 2 });
    // What an HTTP endpoint hands middleware for a verified token: its claims, issuer included.
    const call = (issuer: string) =>
      ({
        kind: "request",
        direction: "inbound",
        method: "tools/call",
        principal: { issuer, subject: "ada" },
      }) as MiddlewareContext;
    const served = async (issuer: string) => {
      let ok = 0;
      for (let i = 0; i < 3; i++) {
        try {
          await limit(call(issuer), async () => ({}));
          ok++;
        } catch (error) {
          expect((error as { code?: number }).code).toBe(RATE_LIMITED);
        }
      }
      return ok;
    };
    expect(await served("https://one.example")).toBe(2);
    // "ada" at another authorization server is someone else, with a bucket of her own.
    expect(await served("https://two.example")).toBe(2);
    expect(await served("https://one.example")).toBe(0);
  });
});
