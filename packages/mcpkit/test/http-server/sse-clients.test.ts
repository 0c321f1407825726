import { afterEach, describe, expect, it, vi } from "vitest";
import { createSseHandler, type SseHandler } from "../../src/endpoints/http/index.js";
import { RATE_LIMITED, rateLimit } from "../../src/middleware/index.js";
import { createServer } from "../../src/server/index.js";

// The HTTP+SSE transport (2024-11-05) knows its clients by address, as Streamable HTTP
// does: the Node adapter passes it (`fetch(request, { clientAddress })`), its streams are
// capped per client as well as in total, and rate limits count a client's requests by
// address rather than by stream, so opening another stream buys nothing.

const handlers: SseHandler[] = [];
afterEach(async () => {
  for (const handler of handlers.splice(0)) await handler.close();
});

const BASE = "http://127.0.0.1";

/** A stream opened from `address`: its messages endpoint, and a way to read its events and post to it. */
async function openStream(handler: SseHandler, address: string) {
  const response = await handler.fetch(new Request(`${BASE}/sse`), { clientAddress: address });
  if (response.status !== 200) return { status: response.status, text: await response.text() };
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  const events: string[] = [];
  const nextEvent = async () => {
    while (!buffer.includes("\n\n")) buffer += decoder.decode((await reader.read()).value);
    const end = buffer.indexOf("\n\n");
    const event = buffer.slice(0, end);
    buffer = buffer.slice(end + 2);
    return event;
  };
  const endpoint = /data: (\S+)/.exec(await nextEvent())?.[1] as string;
  /** Posts a message (from `address`) and, for a request, waits for its answer on the stream. */
  const send = async (message: Record<string, unknown>) => {
    const posted = await handler.fetch(
      new Request(new URL(endpoint, BASE), {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(message),
      }),
      { clientAddress: address },
    );
    expect(posted.status).toBe(202);
    if (!("id" in message)) return undefined;
    for (;;) {
      const data = /data: (.*)/.exec(await nextEvent())?.[1];
      const parsed = data && (JSON.parse(data) as { id?: unknown; result?: unknown; error?: { code: number } });
      if (parsed && parsed.id === message.id) return parsed;
      if (parsed) events.push(data);
    }
  };
  return { status: 200, send, close: () => reader.cancel() };
}

describe("HTTP+SSE knows its clients by address", () => {
  it("caps streams per client as well as in total: one client cannot take them all", async () => {
    const handler = createSseHandler(createServer({ name: "capped", version: "1" }), { maxSessions: 10 });
    handlers.push(handler);
    const first = await openStream(handler, "10.0.0.1");
    expect(first.status).toBe(200);
    // A tenth of the total by default: one stream for this client …
    const second = await openStream(handler, "10.0.0.1");
    expect(second).toMatchObject({ status: 503, text: expect.stringContaining("Too many sessions from this client") });
    // … an IPv6 client by its /64, and any other client is let in.
    expect((await openStream(handler, "2001:db8:1:2::1")).status).toBe(200);
    expect((await openStream(handler, "2001:db8:1:2::2")).status).toBe(503);
    expect((await openStream(handler, "10.0.0.2")).status).toBe(200);
    // Streams asked for at once are counted as they are asked for: one gets in.
    const together = await Promise.all([openStream(handler, "10.0.0.3"), openStream(handler, "10.0.0.3")]);
    expect(together.map((t) => t.status).sort()).toEqual([200, 503]);
    // A client that lets go of its stream may open another.
    await (first as { close: () => Promise<void> }).close();
    await vi.waitFor(async () => expect((await openStream(handler, "10.0.0.1")).status).toBe(200));
  });

  it("rate limits count a client's requests by address, whatever the stream", async () => {
    const server = createServer({
      name: "limited",
      version: "1",
      middleware: [rateLimit({ perSecond: 0.001, burst: 2, exempt: (ctx) => ctx.method !== "tools/call" })],
    });
    server.tool("hit", {}, () => "ok");
    const handler = createSseHandler(server);
    handlers.push(handler);
    const session = async (address: string) => {
      const stream = (await openStream(handler, address)) as Awaited<ReturnType<typeof openStream>> & {
        send: (m: Record<string, unknown>) => Promise<{ error?: { code: number } } | undefined>;
      };
      await stream.send({
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: { protocolVersion: "2024-11-05", capabilities: {}, clientInfo: { name: "old", version: "1" } },
      });
      await stream.send({ jsonrpc: "2.0", method: "notifications/initialized" });
      let served = 0;
      for (let id = 1; id <= 3; id++) {
        const answer = await stream.send({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "hit" } });
        if (answer?.error?.code === RATE_LIMITED) continue;
        served++;
      }
      return served;
    };
    expect(await session("10.0.0.1")).toBe(2);
    // A new stream from the same address is the same client: its bucket is empty.
    expect(await session("10.0.0.1")).toBe(0);
    expect(await session("10.0.0.2")).toBe(2);
  });
});
