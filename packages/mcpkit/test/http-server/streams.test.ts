import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createServer } from "../../src/server/index.js";
import { allEvents, messagesOf, serveHttp, sessionHeaders, sseEvents } from "./helpers.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Told when the "progress" tool has returned, and when "slow" has started; "slow" finishes on `finishSlow`. */
const hooks = { progressDone: () => {}, slowStarted: () => {}, finishSlow: Promise.resolve() };

/** Resolvers the "polling" tool waits on: the test calls one after each reconnection. */
const reconnected: (() => void)[] = [];

function streamingServer() {
  const server = createServer({ name: "streams", version: "1" });
  server.tool("progress", { input: z.object({ steps: z.number() }) }, async ({ steps }, ctx) => {
    for (let i = 1; i <= steps; i++) {
      ctx.progress(i, steps);
      await sleep(5); // work, paced so the client can drop in the middle of it
    }
    hooks.progressDone();
    return "done";
  });
  // Drops its connection twice while it works: the answer must survive both.
  // Progress 2 and 4 are sent while no stream is attached; the tool carries on once the
  // test has reconnected, so the count does not depend on timing.
  server.tool("polling", {}, async (_a, ctx) => {
    ctx.progress(1, 4);
    ctx.closeStream(50);
    ctx.progress(2, 4);
    await new Promise<void>((resume) => reconnected.push(resume));
    ctx.progress(3, 4);
    ctx.closeStream(50);
    ctx.progress(4, 4);
    await new Promise<void>((resume) => reconnected.push(resume));
    return "finished after two reconnections";
  });
  server.tool("whoami", { input: z.object({ tag: z.string() }) }, async ({ tag }) => {
    await sleep(Math.random() * 20);
    return tag;
  });
  server.tool("slow", {}, async () => {
    hooks.slowStarted();
    await hooks.finishSlow;
    return "slow done";
  });
  return server;
}

let served: Awaited<ReturnType<typeof serveHttp>> | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

const progressCall = (id: number, name: string, args: Record<string, unknown> = {}) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: args, _meta: { progressToken: `p${id}` } },
});

describe("Streamable HTTP: SSE answers", () => {
  it("streams progress before the result, after a priming event with an id and retry, then ends", async () => {
    served = await serveHttp(streamingServer(), { retryMs: 750 });
    const session = await served.open();
    const response = await served.post(progressCall(2, "progress", { steps: 3 }), sessionHeaders(session));
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const events = await allEvents(response);
    expect(events[0]).toMatchObject({ data: "", retry: 750, id: expect.any(String) });
    const messages = messagesOf(events);
    expect(messages.map((m) => (m.method as string) ?? "result")).toEqual([
      "notifications/progress",
      "notifications/progress",
      "notifications/progress",
      "result",
    ]);
    expect(messages[3]).toMatchObject({ id: 2, result: { content: [{ text: "done" }] } });
    // Every event carries an id, unique within the session.
    const ids = events.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("delivers the first progress notification before the handler has finished", async () => {
    const server = createServer({ name: "s", version: "1" });
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    server.tool("gated", {}, async (_a, ctx) => {
      ctx.progress(1, 2);
      await gate;
      return "released";
    });
    served = await serveHttp(server);
    const session = await served.open();
    const response = await served.post(progressCall(2, "gated"), sessionHeaders(session));
    const reader = sseEvents(response);
    const seen: string[] = [];
    for await (const event of reader) {
      if (event.data === "") continue;
      const message = JSON.parse(event.data);
      seen.push(message.method ?? "result");
      if (message.method === "notifications/progress") release();
      if (!message.method) break;
    }
    expect(seen).toEqual(["notifications/progress", "result"]);
  });

  it("resumes a stream the server closed, twice in a row, losing nothing and repeating nothing", async () => {
    served = await serveHttp(streamingServer());
    const session = await served.open();
    const first = await served.post(progressCall(2, "polling"), sessionHeaders(session));
    const received: Record<string, unknown>[] = [];
    let lastId: string | undefined;
    let retry: number | undefined;
    const take = async (response: Response) => {
      for await (const event of sseEvents(response)) {
        if (event.retry !== undefined) retry = event.retry;
        if (event.id) lastId = event.id;
        if (event.data) received.push(JSON.parse(event.data));
      }
    };
    await take(first);
    expect(retry).toBe(50);
    let reconnections = 0;
    while (!received.some((m) => "result" in m) && reconnections < 5) {
      await sleep(retry ?? 50);
      reconnections++;
      const resumed = await fetch(served.url, {
        headers: { ...sessionHeaders(session), accept: "text/event-stream", "last-event-id": lastId ?? "" },
      });
      expect(resumed.status).toBe(200);
      reconnected.shift()?.();
      await take(resumed);
    }
    expect(reconnections).toBe(2);
    const progress = received
      .filter((m) => m.method === "notifications/progress")
      .map((m) => (m.params as { progress: number }).progress);
    expect(progress).toEqual([1, 2, 3, 4]);
    expect(received.filter((m) => "result" in m)).toEqual([
      { jsonrpc: "2.0", id: 2, result: { content: [{ type: "text", text: "finished after two reconnections" }] } },
    ]);
  });

  it("keeps working when the client's connection drops, and replays what it missed on resumption", async () => {
    served = await serveHttp(streamingServer());
    const session = await served.open();
    const toolDone = new Promise<void>((resolve) => {
      hooks.progressDone = resolve;
    });
    const controller = new AbortController();
    const response = await fetch(served.url, {
      method: "POST",
      headers: {
        ...sessionHeaders(session),
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify(progressCall(2, "progress", { steps: 20 })),
      signal: controller.signal,
    });
    const seen: Record<string, unknown>[] = [];
    let lastId = "";
    try {
      for await (const event of sseEvents(response)) {
        if (event.id) lastId = event.id;
        if (event.data) seen.push(JSON.parse(event.data));
        if (seen.length === 3) controller.abort(); // the network drops
      }
    } catch {
      // Aborted.
    }
    await toolDone; // the tool finishes while nobody is listening
    const resumed = await fetch(served.url, {
      headers: { ...sessionHeaders(session), accept: "text/event-stream", "last-event-id": lastId },
    });
    seen.push(...messagesOf(await allEvents(resumed)));
    const progress = seen
      .filter((m) => m.method === "notifications/progress")
      .map((m) => (m.params as { progress: number }).progress);
    expect(progress).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(seen.at(-1)).toMatchObject({ id: 2, result: { content: [{ text: "done" }] } });
  });

  it("refuses to resume another session's stream", async () => {
    served = await serveHttp(streamingServer());
    const alice = await served.open();
    const mallory = await served.open();
    const response = await served.post(progressCall(2, "progress", { steps: 1 }), sessionHeaders(alice));
    const events = await allEvents(response);
    const eventId = events[0]?.id as string;
    const stolen = await fetch(served.url, {
      headers: { ...sessionHeaders(mallory), accept: "text/event-stream", "last-event-id": eventId },
    });
    expect(stolen.status).toBe(400);
  });

  it("never lets two clients using the same request ids see each other's answers", async () => {
    served = await serveHttp(streamingServer());
    const a = await served.open();
    const b = await served.open();
    const calls = [];
    for (let id = 2; id < 12; id++) {
      for (const [session, who] of [
        [a, "a"],
        [b, "b"],
      ] as const) {
        calls.push(
          served
            .post(
              {
                jsonrpc: "2.0",
                id,
                method: "tools/call",
                params: { name: "whoami", arguments: { tag: `${who}${id}` } },
              },
              sessionHeaders(session),
            )
            .then((r) => r.json() as Promise<{ id: number; result: { content: { text: string }[] } }>)
            .then((body) => ({ who, id, body })),
        );
      }
    }
    for (const { who, id, body } of await Promise.all(calls)) {
      expect(body.id).toBe(id);
      expect(body.result.content[0]?.text).toBe(`${who}${id}`);
    }
  });
});

describe("Streamable HTTP: the standalone GET stream", () => {
  it("carries server-initiated notifications, one GET at a time", async () => {
    const server = streamingServer();
    served = await serveHttp(server);
    const session = await served.open();
    const get = await fetch(served.url, { headers: { ...sessionHeaders(session), accept: "text/event-stream" } });
    expect(get.status).toBe(200);
    expect(get.headers.get("content-type")).toBe("text/event-stream");
    const second = await fetch(served.url, { headers: { ...sessionHeaders(session), accept: "text/event-stream" } });
    expect(second.status).toBe(409);
    const events = sseEvents(get);
    expect((await events.next()).value).toMatchObject({ data: "" }); // priming
    server.tool("added_later", {}, () => "");
    const next = await events.next();
    expect(JSON.parse((next.value as { data: string }).data)).toEqual({
      jsonrpc: "2.0",
      method: "notifications/tools/list_changed",
      params: {},
    });
    await events.return(undefined);
  });

  it("needs Accept: text/event-stream (406) and a session (400)", async () => {
    served = await serveHttp(streamingServer());
    const session = await served.open();
    expect(
      (await fetch(served.url, { headers: { ...sessionHeaders(session), accept: "application/json" } })).status,
    ).toBe(406);
    expect((await fetch(served.url, { headers: { accept: "text/event-stream" } })).status).toBe(400);
  });
});

describe("Streamable HTTP: session lifetime", () => {
  it("reclaims 10,000 abandoned sessions after the idle timeout, memory back near where it started", async () => {
    const { setFlagsFromString } = await import("node:v8");
    const { runInNewContext } = await import("node:vm");
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    const { createStreamableHttpHandler } = await import("../../src/endpoints/http/index.js");
    const server = streamingServer();
    const handler = createStreamableHttpHandler(server, { idleTimeoutMs: 300 });
    gc();
    const before = process.memoryUsage().heapUsed;
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "x", version: "1" } },
    });
    for (let i = 0; i < 10_000; i++) {
      const response = await handler.fetch(
        new Request("http://localhost/mcp", {
          method: "POST",
          headers: {
            host: "localhost",
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
          },
          body,
        }),
      );
      await response.text();
    }
    expect(handler.sessionCount).toBe(10_000);
    expect(server.sessions.size).toBe(10_000);
    gc();
    const full = process.memoryUsage().heapUsed;
    const deadline = Date.now() + 5000;
    while (handler.sessionCount > 0 && Date.now() < deadline) await sleep(50);
    expect(handler.sessionCount).toBe(0);
    expect(server.sessions.size).toBe(0);
    await sleep(10);
    gc();
    const after = process.memoryUsage().heapUsed;
    const perSession = (full - before) / 10_000;
    // What 10,000 sessions held is given back (within 15% of it, plus 2 MB of noise).
    expect(after - before).toBeLessThan((full - before) * 0.15 + 2 * 1024 * 1024);
    expect(perSession).toBeGreaterThan(0);
    await handler.close();
  }, 30_000);

  it("drains a request in progress on close before ending its session", async () => {
    served = await serveHttp(streamingServer());
    const session = await served.open();
    const started = new Promise<void>((resolve) => {
      hooks.slowStarted = resolve;
    });
    let finish = () => {};
    hooks.finishSlow = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const pending = served.post(
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "slow", arguments: {} } },
      sessionHeaders(session),
    );
    await started;
    const closing = served.handler.close();
    finish(); // the request was in progress when close() began
    const answer = await (await pending).json();
    expect(answer).toMatchObject({ id: 2, result: { content: [{ text: "slow done" }] } });
    await closing;
    expect(served.handler.sessionCount).toBe(0);
    const refused = await served.post({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} });
    expect(refused.status).toBe(503);
  });
});
