import { createServer as createNodeServer } from "node:http";
import { type AddressInfo, connect } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import {
  createSseHandler,
  createStreamableHttpHandler,
  InMemoryEventStore,
  routeByPath,
  toNodeListener,
} from "../../src/endpoints/http/index.js";
import type { JsonRpcMessage } from "../../src/jsonrpc/types.js";
import { createServer } from "../../src/server/index.js";
import { definitionOf } from "../../src/server/mcp-server.js";
import { REPORT_ERROR } from "../../src/transports/http/exchange.js";
import { HttpSessionTransport } from "../../src/transports/streamable-http/server/session-transport.js";
import { within } from "../stdio/helpers.js";
import { allEvents, messagesOf, serveHttp, sessionHeaders } from "./helpers.js";

// Every unexpected failure while serving HTTP reaches the operator (server onError), and
// the client is never left waiting on a request or a stream that went silent.

let closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.reverse()) await close();
  closers = [];
});

/** An event store that fails the operations named in `failing` (a store that went away). */
class FailingStore extends InMemoryEventStore {
  failing = new Set<"append" | "replay">();
  override append(streamId: string, message: JsonRpcMessage | JsonRpcMessage[] | undefined): Promise<string> {
    if (this.failing.has("append")) return Promise.reject(new Error("store unavailable: append"));
    return super.append(streamId, message);
  }
  override replayAfter(
    eventId: string,
    send: (eventId: string, message: JsonRpcMessage | JsonRpcMessage[]) => void,
  ): Promise<void> {
    if (this.failing.has("replay")) return Promise.reject(new Error("store unavailable: replay"));
    return super.replayAfter(eventId, send);
  }
}

function reportingServer() {
  const errors: unknown[] = [];
  const server = createServer({ name: "failing", version: "1", onError: (error) => errors.push(error) });
  server.tool("steps", {}, async (_a, ctx) => {
    ctx.progress(1, 2); // progress first: the answer goes out as an SSE stream
    ctx.progress(2, 2);
    return "done";
  });
  return { server, errors };
}

const callSteps = {
  jsonrpc: "2.0",
  id: 2,
  method: "tools/call",
  params: { name: "steps", _meta: { progressToken: 1 } },
};

describe("failures while serving Streamable HTTP", () => {
  it("reports a stream write the event store refused, and ends the POST's stream instead of leaving it open", async () => {
    const { server, errors } = reportingServer();
    const eventStore = new FailingStore();
    const served = await serveHttp(server, { eventStore });
    closers.push(served.close);
    const session = await served.open();
    eventStore.failing.add("append");
    const response = await served.post(callSteps, sessionHeaders(session));
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    // allEvents gives up after 5 s: a stream that ends at once is one the server closed.
    const started = Date.now();
    expect(messagesOf(await allEvents(response, 5000))).toEqual([]);
    expect(Date.now() - started).toBeLessThan(4000);
    expect(errors.map(String)).toContain("Error: store unavailable: append");
  });

  it("ends a stream whose last answer the store refused: nothing is left owed", async () => {
    const errors: unknown[] = [];
    const store = new FailingStore();
    const transport = new HttpSessionTransport("s1", {
      eventStore: store,
      retryMs: 1000,
      keepAliveMs: 60_000,
      onError: (error) => errors.push(error),
    });
    transport.start({ message: () => {}, invalid: () => {}, close: () => {} });
    const reply = transport.post({ jsonrpc: "2.0", id: 1, method: "tools/call" }, [1], {});
    store.failing.add("append");
    transport.send(
      { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 1, progress: 1 } },
      {
        relatedRequestId: 1,
      },
    );
    transport.send({ jsonrpc: "2.0", id: 1, result: { content: [] } });
    expect((await reply).status).toBe(200); // the stream had begun when the store failed
    await expect(within(transport.settled(), 2000, "the stream to end")).resolves.toBeUndefined();
    expect(errors.map(String)).toEqual(["Error: store unavailable: append", "Error: store unavailable: append"]);
    await transport.close();
  });

  it("reports a replay that failed, and ends the resumed stream rather than leaving it silent", async () => {
    const { server, errors } = reportingServer();
    const eventStore = new FailingStore();
    const served = await serveHttp(server, { eventStore });
    closers.push(served.close);
    const session = await served.open();
    const events = await allEvents(await served.post(callSteps, sessionHeaders(session)));
    expect(messagesOf(events).at(-1)).toMatchObject({ id: 2, result: { content: [{ text: "done" }] } });
    const first = events.find((e) => e.id)?.id as string;
    eventStore.failing.add("replay");
    const resumed = await fetch(served.url, {
      headers: { ...sessionHeaders(session), accept: "text/event-stream", "last-event-id": first },
    });
    expect(resumed.status).toBe(200);
    // allEvents gives up after 5 s: a stream that ends at once is one the server closed.
    const started = Date.now();
    expect(await allEvents(resumed, 5000)).toEqual([]);
    expect(Date.now() - started).toBeLessThan(4000);
    expect(errors.map(String)).toContain("Error: store unavailable: replay");
  });

  it("answers a legacy HTTP+SSE request that failed unexpectedly with 500, and reports it", async () => {
    const { server, errors } = reportingServer();
    const handler = createSseHandler(server);
    closers.push(() => handler.close());
    const stream = await handler.fetch(new Request("http://127.0.0.1/sse"));
    const reader = stream.body?.getReader() as ReadableStreamDefaultReader<Uint8Array>;
    let opening = "";
    while (!opening.includes("\n\n")) opening += new TextDecoder().decode((await reader.read()).value);
    const endpoint = /data: (\S+)/.exec(opening)?.[1] as string;
    // The client's connection breaks while its POST body is being read.
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"jsonrpc":'));
        controller.error(new Error("connection reset while reading the body"));
      },
    });
    const response = await handler.fetch(
      new Request(new URL(endpoint, "http://127.0.0.1"), {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
        duplex: "half",
      } as RequestInit),
    );
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({ error: { code: -32603, message: "Internal error" } });
    expect(errors.map(String)).toEqual(["Error: connection reset while reading the body"]);
    await reader.cancel();
  });

  it("reports an event bus listener that throws, and still delivers to the others", async () => {
    const { server, errors } = reportingServer();
    const delivered: string[] = [];
    // The server's own bus (made for it, reporting to its onError).
    const { events } = definitionOf(server);
    events.subscribe(() => {
      throw new Error("listener broke");
    });
    events.subscribe((event) => delivered.push(event.type));
    server.tool("added", {}, () => "");
    await new Promise<void>((resolve) => queueMicrotask(resolve)); // list_changed is published in a microtask
    expect(errors.map(String)).toContain("Error: listener broke");
    expect(delivered.length).toBeGreaterThan(0);
  });

  it("passes a reply the Node adapter could not write to the handler's reporter, or to onError", async () => {
    // A fetch handler whose body fails halfway, as a proxied or generated body can.
    const broken = () => ({
      async fetch() {
        let sent = false;
        const body = new ReadableStream<Uint8Array>({
          pull(controller) {
            if (sent) controller.error(new Error("body stream broke"));
            else controller.enqueue(new TextEncoder().encode("partial"));
            sent = true;
          },
        });
        return new Response(body, { status: 200, headers: { "content-type": "text/plain" } });
      },
    });
    const reported: unknown[] = [];
    const viaOption = toNodeListener(broken(), { onError: (error) => reported.push(error) });
    const reporting = Object.assign(broken(), { [REPORT_ERROR]: (error: unknown) => reported.push(error) });
    const viaReporter = toNodeListener(reporting);
    // Behind a router, the failure goes to the reporter of the handler that served the path.
    const viaRouter = toNodeListener(routeByPath((path) => (path === "/" ? reporting : undefined)));
    for (const listener of [viaOption, viaReporter, viaRouter]) {
      const http = createNodeServer(listener);
      await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
      closers.push(() => new Promise((resolve) => http.close(() => resolve())));
      const { port } = http.address() as AddressInfo;
      const response = await fetch(`http://127.0.0.1:${port}/`);
      await response.text().catch(() => "the body ended early: expected");
    }
    expect(reported.map(String)).toEqual(Array(3).fill("Error: body stream broke"));

    // mcpkit's handler reports to its server's onError.
    const { server, errors } = reportingServer();
    createStreamableHttpHandler(server)[REPORT_ERROR](new Error("reply not written"));
    expect(errors.map(String)).toEqual(["Error: reply not written"]);
  });

  for (const [size, how] of [
    [200, "read before the handler runs"],
    [200_000, "read as it comes"],
  ] as const)
    it(`a client that hangs up before its body is in is no failure of the server's: nothing reported (a body ${how})`, async () => {
      const { server, errors } = reportingServer();
      const http = createNodeServer(toNodeListener(createStreamableHttpHandler(server)));
      await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
      closers.push(() => new Promise((resolve) => http.close(() => resolve())));
      const { port } = http.address() as AddressInfo;
      // The server has the request's head, and the body it announced never comes in whole.
      const closed = new Promise<void>((resolve) => http.on("request", (req) => req.once("close", () => resolve())));
      const socket = connect(port, "127.0.0.1", () => {
        socket.write(
          "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n" +
            `Accept: application/json, text/event-stream\r\nContent-Length: ${size}\r\n\r\n{"jsonrpc":`,
        );
      });
      http.once("request", () => socket.destroy());
      await within(closed, 5000, "the server to see the request end");
      // The stream's error comes before its close; one more turn for anything it set off.
      await new Promise((resolve) => setImmediate(resolve));
      expect(errors).toEqual([]);
    });
});
