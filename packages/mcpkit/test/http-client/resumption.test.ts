import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { afterEach, describe, expect, it } from "vitest";
import type { Progress } from "../../src/connection/connection-options.js";
import { McpError } from "../../src/jsonrpc/errors.js";
import type { StreamableHttpClientOptions } from "../../src/transports/streamable-http/client/index.js";
import {
  answerHandshake,
  closeAll,
  connectHttp,
  listen,
  SSE_HEADERS,
  sdkServer,
  sleep,
  sseEvent,
  toolResult,
  until,
  within,
} from "./helpers.js";

// transports §Resumability and Redelivery: a dropped SSE stream is resumed with GET and
// Last-Event-ID after the server's `retry`, until the responses it owes have arrived, with
// nothing lost and nothing delivered twice.

afterEach(closeAll);

const connect = async (url: string, options: StreamableHttpClientOptions = {}) =>
  (await connectHttp(url, options)).client;

const progressOf = (list: Progress[]) => list.map((p) => p.progress);

describe("against the official SDK server with an event store", () => {
  /** Reports progress 1, closes its own stream (SDK closeSSEStream), reports 2 and 3 while the client is away, answers. */
  function pollingTool(server: McpServer): void {
    server.registerTool("long", { description: "Drops its stream halfway" }, async (extra) => {
      const token = extra._meta?.progressToken as string | number;
      const progress = (n: number) =>
        extra.sendNotification({ method: "notifications/progress", params: { progressToken: token, progress: n } });
      // The SDK's example InMemoryEventStore orders replays by `${stream}_${Date.now()}_${random}`,
      // so events of one millisecond may replay out of order: keep them a few ms apart.
      await progress(1);
      extra.closeSSEStream?.();
      await sleep(20); // the server works on while the client is away
      await progress(2);
      await sleep(3);
      await progress(3);
      await sleep(3);
      return { content: [{ type: "text", text: "finished" }] };
    });
  }

  it("resumes a stream the server closed, with every message once, after the server's retry", async () => {
    const server = await sdkServer({ resumable: true, retryMs: 150, configure: pollingTool });
    const client = await connect(server.url, { standaloneStream: false });
    const progress: Progress[] = [];
    const started = performance.now();
    const result = await client.callTool("long", {}, { onprogress: (p) => progress.push(p) });
    expect(result.content).toEqual([{ type: "text", text: "finished" }]);
    expect(progressOf(progress)).toEqual([1, 2, 3]);
    const resumed = server.seen.filter((s) => s.method === "GET");
    expect(resumed).toHaveLength(1);
    // The last event the client had before the server closed the stream: progress 1.
    const progress1 = server.stored.find((e) => JSON.stringify(e.message).includes('"progress":1'));
    expect(progress1).toBeDefined();
    expect(resumed[0]?.headers["last-event-id"]).toBe(progress1?.id);
    expect(resumed[0]?.headers["mcp-session-id"]).toBe([...server.sessions.keys()][0]);
    // The SDK sends `retry: 150` in its priming event; the client must wait at least that.
    expect((resumed[0]?.at ?? 0) - started).toBeGreaterThanOrEqual(140);
  });

  it("keeps the standalone GET stream and resumes a dropped POST stream side by side", async () => {
    const server = await sdkServer({ resumable: true, retryMs: 50, configure: pollingTool });
    const client = await connect(server.url);
    const progress: Progress[] = [];
    const result = await client.callTool("long", {}, { onprogress: (p) => progress.push(p) });
    expect(result.content).toEqual([{ type: "text", text: "finished" }]);
    expect(progressOf(progress)).toEqual([1, 2, 3]);
    const gets = server.seen.filter((s) => s.method === "GET");
    expect(gets.filter((g) => g.headers["last-event-id"] === undefined)).toHaveLength(1); // the standalone stream
    expect(gets.filter((g) => g.headers["last-event-id"] !== undefined)).toHaveLength(1); // the resumption
  });
});

describe("against a hand-written server", () => {
  it("resumes after the connection is destroyed mid-stream, and drops replayed duplicates", async () => {
    let resumedWith: string | undefined;
    const server = await listen((req, res, body) => {
      if (answerHandshake(req, res, body)) return;
      const call = body as { id: number; params: { _meta: { progressToken: number } } };
      const progress = (n: number) => ({
        jsonrpc: "2.0",
        method: "notifications/progress",
        params: { progressToken: call?.params?._meta?.progressToken ?? resumedToken, progress: n },
      });
      if (req.method === "POST") {
        resumedToken = call.params._meta.progressToken;
        pendingId = call.id;
        res.writeHead(200, SSE_HEADERS);
        res.write(sseEvent({ id: "s1-1", retry: 50, data: "" }));
        res.write(sseEvent({ id: "s1-2", data: progress(1) }));
        // A network failure, not a clean end: the socket just goes away.
        setTimeout(() => res.socket?.destroy(), 30);
        return;
      }
      if (req.method === "GET" && req.headers["last-event-id"]) {
        resumedWith = req.headers["last-event-id"] as string;
        res.writeHead(200, SSE_HEADERS);
        // A careless server replays the last event the client already has, then continues.
        res.write(sseEvent({ id: "s1-2", data: progress(1) }));
        res.write(sseEvent({ id: "s1-3", data: progress(2) }));
        res.write(sseEvent({ id: "s1-4", data: toolResult(pendingId, "after the break") }));
        return; // left open: the client ends it once the answer is in
      }
      res.writeHead(405).end();
    });
    let resumedToken = 0;
    let pendingId = 0;
    const client = await connect(server.url);
    const progress: Progress[] = [];
    const result = await client.callTool("x", {}, { onprogress: (p) => progress.push(p) });
    expect(result.content).toEqual([{ type: "text", text: "after the break" }]);
    expect(resumedWith).toBe("s1-2");
    expect(progressOf(progress)).toEqual([1, 2]);
  });

  it("honours the retry field before reconnecting, and resumes repeatedly while the server polls", async () => {
    const RETRY = 300;
    const closedAt: number[] = [];
    const lastIds: string[] = [];
    let pendingId = 0;
    let round = 0;
    const server = await listen((req, res, body) => {
      if (answerHandshake(req, res, body)) return;
      if (req.method === "POST") {
        pendingId = (body as { id: number }).id;
        res.writeHead(200, SSE_HEADERS);
        res.end(sseEvent({ id: "p-0", retry: RETRY, data: "" }));
        closedAt.push(performance.now());
        return;
      }
      if (req.method === "GET" && req.headers["last-event-id"]) {
        lastIds.push(req.headers["last-event-id"] as string);
        round++;
        res.writeHead(200, SSE_HEADERS);
        // Two polls bring only a new cursor; the third brings the answer.
        if (round < 3) {
          res.end(sseEvent({ id: `p-${round}`, data: "" }));
          closedAt.push(performance.now());
        } else res.end(sseEvent({ id: `p-${round}`, data: toolResult(pendingId, "polled") }));
        return;
      }
      res.writeHead(405).end();
    });
    const client = await connect(server.url);
    const result = await client.callTool("x", {});
    expect(result.content).toEqual([{ type: "text", text: "polled" }]);
    expect(lastIds).toEqual(["p-0", "p-1", "p-2"]);
    const gets = server.seen.filter((s) => s.method === "GET" && s.headers["last-event-id"]);
    gets.forEach((get, i) => {
      // Each reconnection waits the server's retry (a few ms of timer slack allowed).
      expect(get.at - (closedAt[i] ?? 0)).toBeGreaterThanOrEqual(RETRY - 5);
    });
  });

  it("fails the request clearly when the stream ends with no event id to resume from", async () => {
    const server = await listen((req, res, body) => {
      if (answerHandshake(req, res, body)) return;
      if (req.method === "POST") {
        res.writeHead(200, SSE_HEADERS);
        res.end(
          sseEvent({
            data: { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "hi" } },
          }),
        );
        return;
      }
      res.writeHead(405).end();
    });
    const client = await connect(server.url);
    const error = await client.callTool("x", {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).message).toMatch(/ended the response stream before answering, without an event id/);
    expect(server.seen.filter((s) => s.headers["last-event-id"])).toHaveLength(0);
  });

  it("gives up after a bounded number of fruitless reconnections, with the last failure in the message", async () => {
    const server = await listen((req, res, body) => {
      if (answerHandshake(req, res, body)) return;
      if (req.method === "POST") {
        res.writeHead(200, SSE_HEADERS);
        res.end(sseEvent({ id: "only", data: "" }));
        return;
      }
      if (req.headers["last-event-id"]) {
        res.writeHead(503, { "content-type": "text/plain" }).end("overloaded");
        return;
      }
      res.writeHead(405).end();
    });
    const client = await connect(server.url, { reconnect: { initialDelayMs: 5, maxRetries: 3, growFactor: 1 } });
    const error = (await within(
      client.callTool("x", {}).catch((e: unknown) => e),
      5000,
      "give up",
    )) as McpError;
    expect(error).toBeInstanceOf(McpError);
    expect(error.message).toMatch(/Gave up resuming the stream after 3 attempts: GET .* failed with HTTP 503/);
    expect(error.message).toContain("overloaded");
    // One attempt, then three more that brought nothing back.
    expect(server.seen.filter((s) => s.headers["last-event-id"] === "only")).toHaveLength(4);
  });

  it("reconnects the standalone GET stream with its Last-Event-ID when the server drops it", async () => {
    let gets = 0;
    const lastIds: (string | undefined)[] = [];
    const server = await listen((req, res, body) => {
      if (answerHandshake(req, res, body)) return;
      if (req.method === "GET") {
        gets++;
        lastIds.push(req.headers["last-event-id"] as string | undefined);
        res.writeHead(200, SSE_HEADERS);
        if (gets === 1) {
          res.write(sseEvent({ id: "g-1", retry: 20, data: "" }));
          res.end(sseEvent({ id: "g-2", data: { jsonrpc: "2.0", method: "notifications/tools/list_changed" } }));
        } else {
          res.write(sseEvent({ id: "g-3", data: { jsonrpc: "2.0", method: "notifications/tools/list_changed" } }));
        }
        return;
      }
      res.writeHead(405).end();
    });
    const client = await connect(server.url);
    let changes = 0;
    client.on("notifications/tools/list_changed", () => changes++);
    await until(() => changes === 2, "two list_changed notifications");
    expect(lastIds).toEqual([undefined, "g-2"]);
  });

  it("tolerates a server that answers 405 to the GET stream, and does not retry it", async () => {
    const server = await listen((req, res, body) => {
      if (answerHandshake(req, res, body)) return;
      if (req.method === "POST") {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify(toolResult((body as { id: number }).id, "fine")));
        return;
      }
      res.writeHead(405, { allow: "POST, DELETE" }).end();
    });
    const errors: Error[] = [];
    const client = await connect(server.url, { onError: (e) => errors.push(e) });
    await until(() => server.seen.some((s) => s.method === "GET"), "the GET attempt");
    await expect(client.callTool("x", {})).resolves.toMatchObject({ content: [{ text: "fine" }] });
    // A retry would come on the client's own backoff; nothing follows its absence, so wait.
    await sleep(100);
    expect(server.seen.filter((s) => s.method === "GET")).toHaveLength(1);
    expect(errors).toEqual([]);
  });

  it("stops reading a request's stream once that request is cancelled", async () => {
    let streamClosed = false;
    const server = await listen((req, res, body) => {
      if (answerHandshake(req, res, body)) return;
      if (req.method === "POST") {
        res.writeHead(200, SSE_HEADERS);
        res.write(sseEvent({ id: "c-1", data: "" }));
        res.on("close", () => {
          streamClosed = true;
        });
        return; // never answers
      }
      res.writeHead(405).end();
    });
    const client = await connect(server.url);
    const abort = new AbortController();
    const call = client.callTool("slow", {}, { signal: abort.signal });
    await until(() => server.seen.some((s) => s.rpc === "tools/call"), "the call");
    abort.abort(new Error("changed my mind"));
    await expect(call).rejects.toThrow("changed my mind");
    await until(() => streamClosed, "the stream to be closed by the client");
    await until(() => server.seen.some((s) => s.rpc === "notifications/cancelled"), "the cancellation");
  });

  it("closes at once while waiting to reconnect, failing the pending call", async () => {
    const server = await listen((req, res, body) => {
      if (answerHandshake(req, res, body)) return;
      if (req.method === "POST") {
        res.writeHead(200, SSE_HEADERS);
        res.end(sseEvent({ id: "later", retry: 60_000, data: "" }));
        return;
      }
      res.writeHead(405).end();
    });
    const client = await connect(server.url);
    const call = client.callTool("x", {});
    await until(() => server.seen.some((s) => s.rpc === "tools/call"), "the call");
    // Let the client read the stream's end (retry: 60 s): nothing it does then is observable.
    await sleep(20);
    const started = performance.now();
    await within(client.close(), 2000, "close");
    expect(performance.now() - started).toBeLessThan(1000);
    await expect(call).rejects.toThrow(/Connection closed/);
    expect(server.seen.filter((s) => s.headers["last-event-id"])).toHaveLength(0);
    expect(server.seen.at(-1)?.method).toBe("DELETE");
  });

  it("refuses an event larger than maxMessageBytes instead of buffering it", async () => {
    const server = await listen((req, res, body) => {
      if (answerHandshake(req, res, body)) return;
      if (req.method === "POST") {
        res.writeHead(200, SSE_HEADERS);
        res.write(sseEvent({ id: "big-1", data: "" }));
        res.write(`id: big-2\ndata: ${"x".repeat(64 * 1024)}`);
        return;
      }
      res.writeHead(405).end();
    });
    const client = await connect(server.url, { maxMessageBytes: 16 * 1024 });
    await expect(client.callTool("x", {})).rejects.toThrow("The server sent an event larger than the 16384-byte limit");
    expect(server.seen.filter((s) => s.headers["last-event-id"])).toHaveLength(0);
  });
});
