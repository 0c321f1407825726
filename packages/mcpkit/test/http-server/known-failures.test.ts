import { afterEach, describe, expect, it } from "vitest";
import { structured } from "../../src/content.js";
import { createServer } from "../../src/server/index.js";
import { type SseEventSeen, serveHttp, sessionHeaders, sseEvents } from "./helpers.js";

// Failure classes other MCP implementations shipped (docs/security.md, "Known failure
// classes"), each pinned here against mcpkit's Streamable HTTP server. The others sit
// beside the code they concern; docs/security.md lists where.

let served: Awaited<ReturnType<typeof serveHttp>> | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

/** The next event of a stream that carries a message, skipping priming events. */
async function nextMessage(events: AsyncGenerator<SseEventSeen>): Promise<Record<string, unknown>> {
  for (;;) {
    const { value, done } = await events.next();
    if (done) throw new Error("the stream ended");
    if (value.data !== "") return JSON.parse(value.data) as Record<string, unknown>;
  }
}

describe("known failure classes, Streamable HTTP server", () => {
  it("keeps a notification sent before the client opened its GET stream, and delivers it when it does", async () => {
    const server = createServer({ name: "early", version: "1" });
    server.tool("first", {}, () => "one");
    served = await serveHttp(server);
    const session = await served.open();
    // The session is live, no GET stream yet: the tool list changes now.
    server.tool("second", {}, () => "two");
    const get = await fetch(served.url, { headers: { ...sessionHeaders(session), accept: "text/event-stream" } });
    expect(get.status).toBe(200);
    const events = sseEvents(get);
    expect(await nextMessage(events)).toMatchObject({ method: "notifications/tools/list_changed" });
    await events.return(undefined);
  });

  it("lists every other tool when one tool's output schema cannot be compiled", async () => {
    const server = createServer({ name: "schemas", version: "1" });
    server.tool("good", {}, () => "fine");
    // Well-formed JSON Schema that a validator cannot compile (an unresolvable $ref).
    server.tool("broken", { output: { type: "object", properties: { a: { $ref: "#/$defs/missing" } } } }, () =>
      structured({ a: 1 }),
    );
    served = await serveHttp(server);
    const session = await served.open();
    const listed = await served.post({ jsonrpc: "2.0", id: 2, method: "tools/list" }, sessionHeaders(session));
    const body = (await listed.json()) as { result: { tools: { name: string }[] } };
    expect(body.result.tools.map((t) => t.name).sort()).toEqual(["broken", "good"]);
    const good = await served.post(
      { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "good", arguments: {} } },
      sessionHeaders(session),
    );
    expect(((await good.json()) as { result: { content: unknown[] } }).result.content).toEqual([
      { type: "text", text: "fine" },
    ]);
  });
});
