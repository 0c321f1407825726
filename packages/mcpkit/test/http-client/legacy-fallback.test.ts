import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { Client } from "../../src/client/index.js";
import { McpError } from "../../src/jsonrpc/errors.js";
import { sseClientTransport } from "../../src/transports/sse-legacy/sse-client-transport.js";
import { streamableHttpClientTransport } from "../../src/transports/streamable-http/client/index.js";
import type { Transport } from "../../src/transports/transport.js";
import { closeAll, connectClient, legacySdkServer, listen, SSE_HEADERS, sseEvent, until } from "./helpers.js";

// transports §Backwards Compatibility: a client given the URL of a 2024-11-05 HTTP+SSE
// server (here the OFFICIAL SDK's SSEServerTransport) tries Streamable HTTP first and,
// on 400/404/405, speaks the old transport instead.

afterEach(closeAll);

function echoTool(server: McpServer): void {
  server.registerTool("echo", { description: "Echoes", inputSchema: { text: z.string() } }, async ({ text }, extra) => {
    await extra.sendNotification({
      method: "notifications/message",
      params: { level: "info", data: `echoing ${text}` },
    });
    return { content: [{ type: "text", text }] };
  });
}

const connect = (transport: Transport) => connectClient(transport);

describe("falling back from Streamable HTTP", () => {
  it.each([405, 404, 400])(
    "switches to HTTP+SSE when the initialize POST gets %i, and re-sends the initialize",
    async (status) => {
      const server = await legacySdkServer(echoTool, status);
      const transport = streamableHttpClientTransport(server.url, { headers: { "x-client": "mcpkit" } });
      const client = await connect(transport);
      expect(transport.mode).toBe("sse");
      expect(transport.sessionId).toBeUndefined();
      expect(client.serverInfo?.name).toBe("legacy-test-server");

      const logs: unknown[] = [];
      client.on("notifications/message", (params) => logs.push(params.data));
      const result = await client.callTool("echo", { text: "over SSE" });
      expect(result.content).toEqual([{ type: "text", text: "over SSE" }]);
      expect(logs).toEqual(["echoing over SSE"]);

      const [first, get, ...rest] = server.seen;
      expect(first).toMatchObject({ method: "POST", url: "/mcp", rpc: "initialize" });
      expect(get).toMatchObject({ method: "GET", url: "/mcp" });
      expect(get?.headers.accept).toBe("text/event-stream");
      expect(rest.map((s) => s.rpc)).toEqual(["initialize", "notifications/initialized", "tools/call"]);
      for (const seen of server.seen) expect(seen.headers["x-client"]).toBe("mcpkit");
      for (const post of rest) expect(post.url).toMatch(/^\/messages\?sessionId=/);
    },
  );

  it("closes the event stream on close", async () => {
    const server = await legacySdkServer(echoTool);
    const client = await connect(streamableHttpClientTransport(server.url));
    expect(server.transports.size).toBe(1);
    await client.close();
    await until(() => server.transports.size === 0, "the server to see the stream end");
  });

  it("does not fall back when legacyFallback is false", async () => {
    const server = await legacySdkServer(echoTool);
    const client = new Client({ name: "legacy-test", version: "0.0.0", protocolVersion: "2025-11-25" });
    const error = await client
      .connect(streamableHttpClientTransport(server.url, { legacyFallback: false }))
      .catch((e) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).message).toContain("HTTP 405");
    expect(server.seen.map((s) => s.method)).toEqual(["POST"]);
  });

  it("reports both failures when the fallback finds no HTTP+SSE server either", async () => {
    const server = await listen((_req, res) => void res.writeHead(404).end());
    const client = new Client({ name: "legacy-test", version: "0.0.0", protocolVersion: "2025-11-25" });
    const error = (await client.connect(streamableHttpClientTransport(server.url)).catch((e) => e)) as McpError;
    expect(error).toBeInstanceOf(McpError);
    expect(error.message).toMatch(
      /was refused with HTTP 404, and the HTTP\+SSE fallback failed too: GET .* failed with HTTP 404/,
    );
  });
});

describe("sseClientTransport on its own", () => {
  it("speaks the 2024-11-05 transport to the SDK's SSE server", async () => {
    const server = await legacySdkServer(echoTool);
    const transport = sseClientTransport(server.url);
    const client = await connect(transport);
    expect(transport.endpoint?.pathname).toBe("/messages");
    const result = await client.callTool("echo", { text: "direct" });
    expect(result.content).toEqual([{ type: "text", text: "direct" }]);
    expect(server.seen[0]).toMatchObject({ method: "GET", url: "/mcp" });
  });

  it("refuses an endpoint event that points at another origin", async () => {
    const server = await listen((_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      res.write(sseEvent({ event: "endpoint", data: "http://evil.example/messages" }));
    });
    await expect(sseClientTransport(server.url).start({ message() {}, invalid() {}, close() {} })).rejects.toThrow(
      /endpoint event names another origin \(http:\/\/evil\.example\)/,
    );
  });

  it("closes the client, failing what is pending, when the server ends the event stream", async () => {
    let stream: import("node:http").ServerResponse | undefined;
    const server = await listen((req, res, body) => {
      if (req.method === "GET") {
        stream = res;
        res.writeHead(200, SSE_HEADERS);
        res.write(sseEvent({ event: "endpoint", data: "/messages?session=1" }));
        return;
      }
      res.writeHead(202).end();
      const message = body as { id?: number; method: string };
      if (message.method !== "initialize") return;
      const result = {
        protocolVersion: "2024-11-05",
        capabilities: { tools: {} },
        serverInfo: { name: "tiny", version: "1" },
      };
      stream?.write(sseEvent({ event: "message", data: { jsonrpc: "2.0", id: message.id, result } }));
    });
    const client = await connect(sseClientTransport(server.url));
    expect(client.protocolVersion).toBe("2024-11-05");
    const call = client.callTool("never-answered", {});
    await until(() => server.seen.some((s) => s.rpc === "tools/call"), "the call");
    stream?.end();
    await expect(call).rejects.toThrow("Connection closed: The server ended the HTTP+SSE event stream");
    expect(client.isConnected).toBe(false);
  });
});
