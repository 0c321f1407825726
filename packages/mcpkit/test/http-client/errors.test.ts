import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { Client } from "../../src/client/index.js";
import { ErrorCode, McpError } from "../../src/jsonrpc/errors.js";
import {
  SESSION_EXPIRED_MESSAGE,
  type StreamableHttpClientOptions,
  streamableHttpClientTransport,
} from "../../src/transports/streamable-http/client/index.js";
import { answerHandshake, closeAll, connectHttp, listen, sdkServer, within } from "./helpers.js";

// HTTP failures become JSON-RPC error responses for the requests they carried, so each
// caller's promise rejects at once with the status and what the server said; a 404 for our
// session id (transports §Session Management) makes the Client start a new session.

afterEach(closeAll);

const connect = (url: string, options: StreamableHttpClientOptions = {}) =>
  connectHttp(url, options, new Client({ name: "errors-test", version: "0.0.0", timeoutMs: 10_000 }));

const rejection = async (promise: Promise<unknown>): Promise<McpError> => {
  const error = await within(
    promise.then(
      () => undefined,
      (e: unknown) => e,
    ),
    5000,
    "the rejection",
  );
  expect(error).toBeInstanceOf(McpError);
  return error as McpError;
};

function counterTool(server: McpServer): void {
  let calls = 0;
  server.registerTool("count", { description: "Counts calls", inputSchema: { by: z.number() } }, async ({ by }) => {
    calls += by;
    return { content: [{ type: "text", text: String(calls) }] };
  });
}

describe("session expiry (HTTP 404 for our session id)", () => {
  it("makes the Client initialize a new session and retry the request once", async () => {
    const server = await sdkServer({ configure: counterTool });
    const { client, transport } = await connect(server.url);
    const first = transport.sessionId as string;
    expect(await client.callTool("count", { by: 1 })).toMatchObject({ content: [{ text: "1" }] });

    // The server forgets every session, as after a restart.
    for (const session of server.sessions.values()) await session.server.close();
    server.sessions.clear();

    const result = await client.callTool("count", { by: 5 });
    expect(result.content).toEqual([{ type: "text", text: "5" }]); // a fresh session's counter
    expect(transport.sessionId).toBeTruthy();
    expect(transport.sessionId).not.toBe(first);
    const inits = server.seen.filter((s) => s.rpc === "initialize");
    expect(inits).toHaveLength(2);
    expect(inits[1]?.headers["mcp-session-id"]).toBeUndefined();
    // The 404 was for the old session; the retry carries the new one.
    const calls = server.seen.filter((s) => s.rpc === "tools/call").map((s) => s.headers["mcp-session-id"]);
    expect(calls).toEqual([first, first, transport.sessionId]);
    expect(client.isConnected).toBe(true);
  });

  it("renews once for several requests that fail together", async () => {
    const server = await sdkServer({ configure: counterTool });
    const { client } = await connect(server.url);
    server.sessions.clear();
    const results = await Promise.all([1, 2, 3].map((by) => client.callTool("count", { by })));
    expect(results.map((r) => r.isError ?? false)).toEqual([false, false, false]);
    expect(server.seen.filter((s) => s.rpc === "initialize")).toHaveLength(2);
  });

  it("surfaces session-expired when the new session is refused too", async () => {
    const server = await listen((req, res, body) => {
      if (answerHandshake(req, res, body, "short-lived")) return;
      res.writeHead(404).end();
    });
    const { client, transport } = await connect(server.url, { standaloneStream: false });
    // The Client retries after a new initialize; that one fails too (404 every time), so the error surfaces.
    const error = await rejection(client.request("tools/list"));
    expect(error.message).toBe(SESSION_EXPIRED_MESSAGE);
    expect(error.code).toBe(ErrorCode.ConnectionClosed);
    expect(error.data).toMatchObject({ reason: "session-expired", status: 404 });
    expect(transport.sessionId).toBeUndefined();
    expect(server.seen.filter((s) => s.rpc === "initialize")).toHaveLength(2);
  });
});

describe("HTTP error statuses", () => {
  function failingServer(status: number, contentType: string, body: string) {
    return listen((req, res, message) => {
      if (answerHandshake(req, res, message)) return;
      if (req.method === "POST") return void res.writeHead(status, { "content-type": contentType }).end(body);
      res.writeHead(405).end();
    });
  }

  it("gives the server's JSON-RPC error as it sent it, as on stdio: code, message and data", async () => {
    const server = await listen((req, res, message) => {
      if (answerHandshake(req, res, message)) return;
      const { id, method } = message as { id?: number; method?: string };
      // A 2025-11-25 server: server/discover is unknown to it.
      if (method !== "tools/call") return void res.writeHead(400).end("Unknown method");
      const error = { code: -32602, message: "Unknown tool: x", data: { tool: "x" } };
      res.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", id, error }));
    });
    const { client } = await connect(server.url, { standaloneStream: false });
    const error = await rejection(client.callTool("x", {}));
    expect(error).toBeInstanceOf(McpError);
    expect(error.message).toBe("Unknown tool: x");
    expect(error.code).toBe(-32602);
    expect(error.data).toEqual({ tool: "x" });
  });

  it("includes a plain-text body", async () => {
    const server = await failingServer(403, "text/plain", "forbidden for this token");
    const { client } = await connect(server.url);
    const error = await rejection(client.callTool("x", {}));
    expect(error.message).toContain("HTTP 403 Forbidden: forbidden for this token");
    expect(error.data).toMatchObject({ status: 403, body: "forbidden for this token" });
  });

  it("fails only the requests of the failed POST", async () => {
    const server = await listen((req, res, message) => {
      if (answerHandshake(req, res, message)) return;
      const call = message as { id: number; params: { name: string } };
      if (req.method === "POST" && call.params.name === "bad") return void res.writeHead(400).end("no");
      if (req.method === "POST") {
        res.writeHead(200, { "content-type": "application/json" });
        return void res.end(JSON.stringify({ jsonrpc: "2.0", id: call.id, result: { content: [] } }));
      }
      res.writeHead(405).end();
    });
    const { client } = await connect(server.url);
    const [bad, good] = await Promise.allSettled([client.callTool("bad", {}), client.callTool("good", {})]);
    expect(bad.status).toBe("rejected");
    expect(good).toEqual({ status: "fulfilled", value: { content: [] } });
  });

  it("rejects answers that break the transport's rules", async () => {
    const answers: [string, number, Record<string, string>, string][] = [
      ["202", 202, {}, "accepted a request (202) without answering it"],
      ["html", 200, { "content-type": "text/html" }, "answered text/html, neither JSON nor an event stream"],
      ["bad json", 200, { "content-type": "application/json" }, "answered with a body that is not valid JSON"],
    ];
    const server = await listen((req, res, message) => {
      if (answerHandshake(req, res, message)) return;
      const name = (message as { params: { name: string } }).params?.name;
      const answer = answers.find(([n]) => n === name);
      if (answer) return void res.writeHead(answer[1], answer[2]).end(answer[1] === 202 ? undefined : "<html>{");
      res.writeHead(405).end();
    });
    const { client } = await connect(server.url);
    for (const [name, , , expected] of answers) {
      const error = await rejection(client.callTool(name, {}));
      expect(error.message).toContain(expected);
    }
  });

  it("reports a refused connection as the request's error", async () => {
    const server = await sdkServer({ configure: counterTool });
    const { client } = await connect(server.url);
    await server.close();
    const error = await rejection(client.callTool("count", { by: 1 }));
    expect(error.message).toMatch(/^POST http:\/\/127\.0\.0\.1:\d+\/mcp failed: fetch failed/);
    expect(error.data).toMatchObject({ reason: "network-error" });
  });

  it("fails connect clearly when the initialize is refused and no fallback is wanted", async () => {
    const server = await listen((_req, res) => void res.writeHead(401, { "content-type": "text/plain" }).end("log in"));
    const client = new Client({ name: "errors-test", version: "0.0.0" });
    const error = await rejection(client.connect(streamableHttpClientTransport(server.url)));
    expect(error.message).toContain("HTTP 401 Unauthorized: log in");
    expect(server.seen.filter((s) => s.method === "GET")).toHaveLength(0); // 401 is no reason to try HTTP+SSE
  });
});
