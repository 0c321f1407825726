import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  createStreamableHttpHandler,
  routeByPath,
  type StreamableHttpHandler,
} from "../../src/endpoints/http/index.js";
import { createServer } from "../../src/server/index.js";
import { type Listening, listen } from "../../src/transports/http/node.js";
import { MODERN, meta } from "../modern/helpers.js";
import { ACCEPT_BOTH, allEvents, initializeBody, messagesOf } from "./helpers.js";

// The handler has two ways in: `fetch(Request)` for Web runtimes (and any router), and the
// Node adapter's direct path that builds neither a Request nor a Response. Every other
// HTTP test uses the direct path; this one runs the same exchanges through both and
// expects the same answers.

function server() {
  const s = createServer({ name: "paths", version: "1" });
  s.tool("echo", { input: z.object({ text: z.string() }) }, ({ text }) => text);
  s.tool("steps", {}, async (_a, ctx) => {
    ctx.progress(1, 2);
    await new Promise((r) => setTimeout(r, 5));
    ctx.progress(2, 2);
    return "stepped";
  });
  return s;
}

let listening: Listening | undefined;
afterEach(async () => {
  await listening?.close();
  listening = undefined;
});

const ADAPTERS = {
  direct: (handler: StreamableHttpHandler) => listen(handler),
  web: (handler: StreamableHttpHandler) =>
    listen({ fetch: (request) => handler.fetch(request), close: () => handler.close() }),
};

/** Status, the headers that matter, and the body: JSON parsed, SSE as its messages. */
async function seen(response: Response) {
  const type = response.headers.get("content-type") ?? "";
  const body = type.startsWith("text/event-stream")
    ? messagesOf(await allEvents(response))
    : type.startsWith("application/json")
      ? await response.json()
      : await response.text();
  return {
    status: response.status,
    type,
    session: response.headers.get("mcp-session-id") !== null,
    cors: response.headers.get("access-control-allow-origin"),
    body,
  };
}

async function exchanges(adapter: keyof typeof ADAPTERS) {
  const handler = createStreamableHttpHandler(server(), {
    maxBodyBytes: 2048,
    cors: { origins: ["http://localhost:5173"] },
    allowedOrigins: ["http://localhost:5173"],
  });
  listening = await ADAPTERS[adapter](handler);
  const url = new URL("/mcp", listening.url).href;
  const post = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: ACCEPT_BOTH, ...headers },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
  const out: Record<string, unknown> = {};
  const init = await post(initializeBody(), { origin: "http://localhost:5173" });
  const session = init.headers.get("mcp-session-id") as string;
  out.initialize = await seen(init);
  const headers = { "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" };
  await (await post({ jsonrpc: "2.0", method: "notifications/initialized" }, headers)).text();
  const call = (id: number, name: string, args: object = {}) => ({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name, arguments: args },
  });
  out.call = await seen(await post(call(2, "echo", { text: "é 😀" }), headers));
  out.progress = await seen(
    await post({ ...call(3, "steps"), params: { name: "steps", arguments: {}, _meta: { progressToken: 7 } } }, headers),
  );
  out.tooLarge = await seen(await post(call(4, "echo", { text: "x".repeat(4096) }), headers));
  out.badJson = await seen(await post("{nope", headers));
  out.unknownSession = await seen(await post(call(5, "echo", { text: "a" }), { "mcp-session-id": "nope" }));
  out.preflight = await seen(
    await fetch(url, {
      method: "OPTIONS",
      headers: { origin: "http://localhost:5173", "access-control-request-method": "POST" },
    }),
  );
  out.modern = await seen(
    await post(
      {
        jsonrpc: "2.0",
        id: 6,
        method: "tools/call",
        params: { name: "echo", arguments: { text: "m" }, _meta: meta() },
      },
      { "mcp-protocol-version": MODERN, "mcp-method": "tools/call", "mcp-name": "echo" },
    ),
  );
  out.delete = await seen(await fetch(url, { method: "DELETE", headers }));
  out.afterDelete = await seen(await post(call(7, "echo", { text: "b" }), headers));
  return out;
}

describe("Streamable HTTP: the Web path and the Node adapter's direct path", () => {
  it("give the same answers to the same exchanges", async () => {
    const direct = await exchanges("direct");
    await listening?.close();
    const web = await exchanges("web");
    expect(direct).toEqual(web);

    expect(direct.initialize).toMatchObject({ status: 200, session: true, cors: "http://localhost:5173" });
    expect(direct.call).toMatchObject({
      status: 200,
      type: "application/json",
      body: { id: 2, result: { content: [{ type: "text", text: "é 😀" }] } },
    });
    expect(direct.progress).toMatchObject({ status: 200, type: "text/event-stream" });
    expect((direct.progress as { body: unknown[] }).body).toHaveLength(3); // two progress, one result
    expect(direct.tooLarge).toMatchObject({ status: 413, body: { error: { code: -32600 } } });
    expect(direct.badJson).toMatchObject({ status: 400, body: { error: { code: -32700 } } });
    expect(direct.unknownSession).toMatchObject({ status: 404 });
    expect(direct.preflight).toMatchObject({ status: 204, cors: "http://localhost:5173" });
    expect(direct.modern).toMatchObject({
      status: 200,
      body: { id: 6, result: { resultType: "complete", content: [{ type: "text", text: "m" }] } },
    });
    expect(direct.delete).toMatchObject({ status: 204 });
    expect(direct.afterDelete).toMatchObject({ status: 404 });
  });

  it("closes the connection after refusing an oversized body, without reading the rest", async () => {
    const handler = createStreamableHttpHandler(server(), { maxBodyBytes: 1024 });
    listening = await ADAPTERS.direct(handler);
    const { request } = await import("node:http");
    const url = new URL("/mcp", listening.url);
    const answer = await new Promise<{ status?: number; connection?: string; body: string }>((resolve, reject) => {
      // No content-length: the limit is enforced on the bytes as they arrive.
      const req = request(url, {
        method: "POST",
        headers: { "content-type": "application/json", accept: ACCEPT_BOTH, "transfer-encoding": "chunked" },
      });
      req.on("response", (res) => {
        let body = "";
        res.setEncoding("utf8").on("data", (c: string) => {
          body += c;
        });
        res.on("end", () => resolve({ status: res.statusCode, connection: res.headers.connection, body }));
      });
      req.on("error", reject);
      req.write(`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"${"x".repeat(4096)}`);
      // The rest never comes: the server must answer anyway.
    });
    expect(answer.status).toBe(413);
    expect(answer.connection).toBe("close");
    expect(JSON.parse(answer.body)).toMatchObject({
      error: { code: -32600, message: expect.stringContaining("1024") },
    });
  });

  it("routes to other fetch handlers through a Web Request, and answers 500 when one throws", async () => {
    const mcp = createStreamableHttpHandler(server());
    const echo = { fetch: async (request: Request) => new Response(`${request.method} ${await request.text()}`) };
    const broken = {
      fetch: async (): Promise<Response> => {
        throw new Error("boom");
      },
    };
    const routes = routeByPath((path) => ({ "/mcp": mcp, "/echo": echo, "/broken": broken })[path], "nothing here");
    listening = await listen({ ...routes, close: () => mcp.close() });
    const at = (path: string) => new URL(path, listening?.url).href;
    expect(await (await fetch(at("/echo"), { method: "POST", body: "hi" })).text()).toBe("POST hi");
    expect((await fetch(at("/broken"))).status).toBe(500);
    const missing = await fetch(at("/elsewhere"));
    expect([missing.status, await missing.text()]).toEqual([404, "nothing here"]);
    const init = await fetch(at("/mcp"), {
      method: "POST",
      headers: { "content-type": "application/json", accept: ACCEPT_BOTH },
      body: JSON.stringify(initializeBody()),
    });
    expect(init.status).toBe(200);
  });
});
