import { afterEach, describe, expect, it } from "vitest";
import { McpError } from "../../src/jsonrpc/errors.js";
import { until, within } from "../http-client/helpers.js";
import { cleanup, complete, connectHttp, fakeServer } from "./fake-http.js";

// 2026-07-28 Streamable HTTP: closing a request's stream is its cancellation (no
// notifications/cancelled POST), and a stream cannot be resumed: one that is lost before
// the response loses the request, which the client sends again with a new id.

afterEach(cleanup);

const SSE = { "content-type": "text/event-stream" };

describe("cancellation over Streamable HTTP", () => {
  it("aborting a call closes its stream and POSTs no notifications/cancelled", async () => {
    let closed = false;
    const server = await fakeServer({
      "tools/call": (_p, _e, res) => {
        res.writeHead(200, SSE);
        res.write(": working\n\n");
        res.on("close", () => {
          closed = true;
        });
        return undefined; // never answers
      },
    });
    const { client } = await connectHttp(server.url);
    const controller = new AbortController();
    const call = client.callTool("slow", {}, { signal: controller.signal });
    await until(() => server.of("tools/call").length === 1, "the call");
    controller.abort(new Error("changed my mind"));
    await expect(call).rejects.toThrow("changed my mind");
    await until(() => closed, "the server to see the stream close");
    // The connection goes on; a cancellation POST would have been sent before this later request.
    expect(client.isConnected).toBe(true);
    await client.ping();
    expect(server.of("notifications/cancelled")).toHaveLength(0);
  });

  it("a timeout cancels the same way", async () => {
    let closed = false;
    const server = await fakeServer({
      "tools/call": (_p, _e, res) => {
        res.writeHead(200, SSE);
        res.write(": working\n\n");
        res.on("close", () => {
          closed = true;
        });
        return undefined;
      },
    });
    const { client } = await connectHttp(server.url);
    const error = await client.callTool("slow", {}, { timeoutMs: 100 }).catch((e: unknown) => e);
    expect((error as McpError).code).toBe(-32001);
    await until(() => closed, "the server to see the stream close");
    await client.ping(); // POSTed after any cancellation would have been
    expect(server.of("notifications/cancelled")).toHaveLength(0);
  });
});

describe("lost response streams", () => {
  it("sends a request again, with a new id, when its stream ends before the response", async () => {
    let attempts = 0;
    const server = await fakeServer({
      "tools/call": (_p, exchange, res) => {
        attempts++;
        res.writeHead(200, SSE);
        // Event ids mean nothing in 2026-07-28: the client must not try to resume with them.
        res.write("id: e-1\nretry: 10\ndata: \n\n");
        if (attempts === 1) return void res.end();
        res.end(
          `id: e-2\ndata: ${JSON.stringify({ jsonrpc: "2.0", id: exchange.id, result: complete({ content: [] }) })}\n\n`,
        );
        return undefined;
      },
    });
    const { client } = await connectHttp(server.url);
    expect(await within(client.callTool("t", {}), 3000, "the call")).toMatchObject({ content: [] });
    const calls = server.of("tools/call");
    expect(calls).toHaveLength(2);
    expect(calls[1]?.id).not.toBe(calls[0]?.id);
    expect(server.seen.some((s) => s.method === "GET")).toBe(false);
  });

  it("sends it again only once", async () => {
    const server = await fakeServer({
      "tools/call": (_p, _e, res) => {
        res.writeHead(200, SSE);
        res.end("data: \n\n");
        return undefined;
      },
    });
    const { client } = await connectHttp(server.url);
    const error = await within(client.callTool("t", {}), 3000, "the call").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).data).toMatchObject({ reason: "stream-lost" });
    expect(server.of("tools/call")).toHaveLength(2);
  });
});
