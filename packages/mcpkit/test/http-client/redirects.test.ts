import type { IncomingMessage, ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { Client } from "../../src/client/index.js";
import { answerHandshake, closeAll, connectHttp, type Listening, listen } from "./helpers.js";

/**
 * HTTP redirects (transports §Security Warning: credentials are for the server they were
 * given to): followed within the server's origin, refused to another unless allowed, and
 * then without the caller's headers.
 */

afterEach(closeAll);

/** A 2025-11-25 server that lists one tool; every request it gets is in `seen`. */
function answer(req: IncomingMessage, res: ServerResponse, body: unknown): void {
  if (answerHandshake(req, res, body)) return;
  const { id, method } = (body ?? {}) as { id?: number; method?: string };
  if (method === "tools/list") {
    res.writeHead(200, { "content-type": "application/json" });
    return void res.end(JSON.stringify({ jsonrpc: "2.0", id, result: { tools: [{ name: "t", inputSchema: {} }] } }));
  }
  res.writeHead(400).end("Unknown method");
}

const redirecting = (to: () => string, status = 307) =>
  listen((_req, res) => void res.writeHead(status, { location: to() }).end());

const secret = { "x-api-key": "secret-key" };
const keysSeenBy = (server: Listening) => server.seen.filter((s) => s.headers["x-api-key"] !== undefined);

describe("HTTP redirects", () => {
  it("follows one within the server's origin, headers and all", async () => {
    const server = await listen((req, res, body) => {
      if (req.url === "/old") return void res.writeHead(308, { location: "/mcp" }).end();
      answer(req, res, body);
    });
    const { client } = await connectHttp(server.url.replace(/\/mcp$/, "/old"), { headers: secret });
    expect((await client.tools()).map((t) => t.name)).toEqual(["t"]);
    expect(server.seen.filter((s) => s.url === "/mcp" && s.method === "POST").length).toBeGreaterThan(0);
    expect(keysSeenBy(server).every((s) => s.headers["x-api-key"] === "secret-key")).toBe(true);
  });

  it("refuses one to another origin: the request fails saying so, and the other origin sees nothing", async () => {
    const elsewhere = await listen(answer);
    const server = await redirecting(() => elsewhere.url);
    const client = new Client({ name: "t", version: "1", protocolVersion: "2025-11-25", timeoutMs: 10_000 });
    const failed = await connectHttp(server.url, { headers: secret, legacyFallback: false }, client).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(failed?.message).toContain(`redirected to another origin (${new URL(elsewhere.url).origin})`);
    expect(elsewhere.seen).toEqual([]);
  });

  it('follows one to another origin with redirects: "any", taking only the protocol\'s own headers', async () => {
    const elsewhere = await listen(answer);
    const server = await redirecting(() => elsewhere.url);
    const { client } = await connectHttp(server.url, {
      headers: { ...secret, authorization: "Bearer for-the-first-server" },
      redirects: "any",
    });
    expect((await client.tools()).map((t) => t.name)).toEqual(["t"]);
    const posts = elsewhere.seen.filter((s) => s.method === "POST");
    expect(posts.length).toBeGreaterThan(0);
    for (const seen of posts) {
      expect(seen.headers["x-api-key"]).toBeUndefined();
      expect(seen.headers.authorization).toBeUndefined();
      expect(seen.headers["content-type"]).toBe("application/json");
    }
    // The first server got them: they were given for it.
    expect(keysSeenBy(server).length).toBeGreaterThan(0);
  });
});
