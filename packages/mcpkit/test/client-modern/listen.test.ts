import type { ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { Client } from "../../src/client/index.js";
import type { JsonRpcNotification } from "../../src/jsonrpc/types.js";
import { McpServer } from "../../src/server/mcp-server.js";
import { createLinkedPair } from "../../src/transports/memory/linked-pair.js";
import { until, within } from "../http-client/helpers.js";
import { cleanup, connectHttp, type Exchange, fakeServer, META_SUB, META_VERSION } from "./fake-http.js";

// basic/patterns/subscriptions: subscriptions/listen opens a stream; the server
// acknowledges first, then sends what the filter asked for, each tagged with the listen
// request's id. Closing the stream (HTTP) ends it.

afterEach(cleanup);

interface Stream {
  exchange: Exchange;
  res: ServerResponse;
  closed: boolean;
  send(method: string, params?: Record<string, unknown>): void;
}

/** A server whose listen streams the test drives by hand; `agree` trims the filter as a server that supports less would. */
async function listenServer(
  agree: (filter: Record<string, unknown>) => Record<string, unknown> = (f) => f,
  ack = true,
) {
  const streams: Stream[] = [];
  const server = await fakeServer({
    "subscriptions/listen": (params, exchange, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      const stream: Stream = {
        exchange,
        res,
        closed: false,
        send(method, extra = {}) {
          const params = { ...extra, _meta: { [META_SUB]: exchange.id } };
          res.write(`data: ${JSON.stringify({ jsonrpc: "2.0", method, params })}\n\n`);
        },
      };
      res.on("close", () => {
        stream.closed = true;
      });
      streams.push(stream);
      if (ack)
        stream.send("notifications/subscriptions/acknowledged", {
          notifications: agree(params.notifications as Record<string, unknown>),
        });
      return undefined;
    },
  });
  return { server, streams };
}

describe("subscriptions/listen over Streamable HTTP", () => {
  it("opens a stream, resolves with the acknowledged filter, and delivers what comes on it", async () => {
    const { server, streams } = await listenServer(({ promptsListChanged, ...rest }) => rest);
    const { client } = await connectHttp(server.url);
    const got: JsonRpcNotification[] = [];
    const onUpdated: unknown[] = [];
    client.on("notifications/resources/updated", (params) => onUpdated.push(params.uri));
    const subscription = await within(
      client.listen({ toolsListChanged: true, promptsListChanged: true, resourceSubscriptions: ["file:///a"] }, (n) =>
        got.push(n),
      ),
      3000,
      "the acknowledgment",
    );
    const [stream] = streams;
    expect(stream?.exchange.params.notifications).toEqual({
      toolsListChanged: true,
      promptsListChanged: true,
      resourceSubscriptions: ["file:///a"],
    });
    expect(stream?.exchange.params._meta?.[META_VERSION]).toBe("2026-07-28");
    expect(stream?.exchange.headers["mcp-method"]).toBe("subscriptions/listen");
    expect(subscription.id).toBe(stream?.exchange.id);
    // §Acknowledgment: the server agreed to less than was asked.
    expect(subscription.filter).toEqual({ toolsListChanged: true, resourceSubscriptions: ["file:///a"] });

    stream?.send("notifications/tools/list_changed");
    stream?.send("notifications/resources/updated", { uri: "file:///a" });
    await until(() => got.length === 2, "two notifications");
    expect(got.map((n) => n.method)).toEqual(["notifications/tools/list_changed", "notifications/resources/updated"]);
    expect(onUpdated).toEqual(["file:///a"]);
  });

  it("keeps concurrent subscriptions apart by their ids", async () => {
    const { server, streams } = await listenServer();
    const { client } = await connectHttp(server.url);
    const a: string[] = [];
    const b: string[] = [];
    const [subA, subB] = await Promise.all([
      client.listen({ toolsListChanged: true }, (n) => a.push(n.method)),
      client.listen({ promptsListChanged: true }, (n) => b.push(n.method)),
    ]);
    expect(subA.id).not.toBe(subB.id);
    const streamOf = (id: unknown) => streams.find((s) => s.exchange.id === id);
    streamOf(subB.id)?.send("notifications/prompts/list_changed");
    streamOf(subA.id)?.send("notifications/tools/list_changed");
    await until(() => a.length === 1 && b.length === 1, "one notification each");
    expect(a).toEqual(["notifications/tools/list_changed"]);
    expect(b).toEqual(["notifications/prompts/list_changed"]);
  });

  it("closes by closing the stream, without POSTing notifications/cancelled", async () => {
    const { server, streams } = await listenServer();
    const { client } = await connectHttp(server.url);
    const subscription = await client.listen({ toolsListChanged: true }, () => undefined);
    await subscription.close();
    expect(await subscription.closed).toEqual({ reason: "closed" });
    await until(() => streams[0]?.closed === true, "the server to see the stream close");
    await client.ping(); // POSTed after any cancellation would have been
    expect(server.of("notifications/cancelled")).toHaveLength(0);
    expect(client.isConnected).toBe(true);
  });

  it("tells a graceful end by the server from a lost stream", async () => {
    const { server, streams } = await listenServer();
    const { client } = await connectHttp(server.url);
    const graceful = await client.listen({ toolsListChanged: true }, () => undefined);
    const lost = await client.listen({ promptsListChanged: true }, () => undefined);
    const streamOf = (id: unknown) => streams.find((s) => s.exchange.id === id);
    // §Graceful Closure: a result for the listen request, tagged like the rest, then the end.
    const end = { resultType: "complete", _meta: { [META_SUB]: graceful.id } };
    streamOf(graceful.id)?.res.end(`data: ${JSON.stringify({ jsonrpc: "2.0", id: graceful.id, result: end })}\n\n`);
    streamOf(lost.id)?.res.end();
    expect(await within(graceful.closed, 3000, "the graceful end")).toEqual({ reason: "ended" });
    const lostEnd = await within(lost.closed, 3000, "the lost stream");
    expect(lostEnd.reason).toBe("lost");
    expect(String(lostEnd.error)).toMatch(/response stream ended/);
    // A lost listen stream is not sent again by itself.
    expect(server.of("subscriptions/listen")).toHaveLength(2);
  });

  it("gives up on a stream the server never acknowledges, and closes it", async () => {
    const { server, streams } = await listenServer(undefined, false);
    const { client } = await connectHttp(server.url);
    await expect(client.listen({ toolsListChanged: true }, () => undefined, { timeoutMs: 100 })).rejects.toThrow(
      /not acknowledged within 100 ms/,
    );
    await until(() => streams[0]?.closed === true, "the stream to be closed");
  });

  it("rejects when the server refuses the subscription", async () => {
    const server = await fakeServer({}); // no subscriptions/listen: 404 with -32601
    const { client } = await connectHttp(server.url);
    await expect(client.listen({ toolsListChanged: true }, () => undefined)).rejects.toMatchObject({ code: -32601 });
  });

  it("closes through an AbortSignal", async () => {
    const { server, streams } = await listenServer();
    const { client } = await connectHttp(server.url);
    const controller = new AbortController();
    const subscription = await client.listen({ toolsListChanged: true }, () => undefined, {
      signal: controller.signal,
    });
    controller.abort();
    expect(await within(subscription.closed, 3000, "closed")).toEqual({ reason: "closed" });
    await until(() => streams[0]?.closed === true, "the stream to be closed");
  });
});

describe("listen() on a handshake-era server", () => {
  it("is built on list_changed notifications and resources/subscribe", async () => {
    const server = new McpServer({ name: "legacy", version: "1" });
    server.tool("first", {}, () => "1");
    server.resource("test://watched", {}, () => "v1");
    const [clientSide, serverSide] = createLinkedPair();
    const sent: string[] = [];
    const send = clientSide.send.bind(clientSide);
    clientSide.send = (message, options) => {
      if (!Array.isArray(message) && "method" in message) sent.push(message.method);
      send(message, options);
    };
    const session = await server.connect(serverSide);
    const client = new Client({ name: "c", version: "1" });
    await client.connect(clientSide);
    try {
      expect(client.protocolEra).toBe("legacy");
      const got: JsonRpcNotification[] = [];
      const subscription = await client.listen(
        { toolsListChanged: true, promptsListChanged: true, resourceSubscriptions: ["test://watched"] },
        (n) => got.push(n),
      );
      expect(subscription.id).toBeUndefined();
      // The server declares no prompts, so promptsListChanged is not agreed to.
      expect(subscription.filter).toEqual({ toolsListChanged: true, resourceSubscriptions: ["test://watched"] });
      expect(sent).toContain("resources/subscribe");

      server.tool("second", {}, () => "2");
      server.resourceUpdated("test://watched");
      server.resourceUpdated("test://other");
      await until(
        () =>
          got.some((n) => n.method === "notifications/tools/list_changed") &&
          got.some((n) => n.method === "notifications/resources/updated"),
        "list_changed and updated",
      );
      expect(got.filter((n) => n.method === "notifications/resources/updated").map((n) => n.params?.uri)).toEqual([
        "test://watched",
      ]);
      await subscription.close();
      expect(sent).toContain("resources/unsubscribe");
      expect(await subscription.closed).toEqual({ reason: "closed" });
    } finally {
      await client.close();
      await session.closed;
    }
  });
});
