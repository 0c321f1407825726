import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { Client } from "../../src/client/index.js";
import type { Progress } from "../../src/connection/connection-options.js";
import { closeAll, connectHttp, sdkServer, until, within } from "./helpers.js";

// The mcpkit client transport (transports §Streamable HTTP) against the OFFICIAL SDK's
// StreamableHTTPServerTransport on a real node:http server.

afterEach(closeAll);

const connect = connectHttp;

function greetTool(server: McpServer): void {
  server.registerTool("greet", { description: "Says hello", inputSchema: { name: z.string() } }, async ({ name }) => ({
    content: [{ type: "text", text: `Hello, ${name}!` }],
  }));
}

/** Sends two logs and two progress notifications before its result. */
function chattyTool(server: McpServer): void {
  server.registerTool("chatty", { description: "Talks while it works" }, async (extra) => {
    const token = extra._meta?.progressToken;
    for (let step = 1; step <= 2; step++) {
      // extra.sendNotification relates the message to this request: it goes on the POST's stream.
      await extra.sendNotification({
        method: "notifications/message",
        params: { level: "info", data: `step ${step}` },
      });
      if (token !== undefined)
        await extra.sendNotification({
          method: "notifications/progress",
          params: { progressToken: token, progress: step, total: 2 },
        });
    }
    return { content: [{ type: "text", text: "done" }] };
  });
}

describe.each([
  ["SSE answers", false],
  ["JSON answers", true],
])("initialize and tools with %s", (_name, json) => {
  it("negotiates, keeps the session id and sends the revision header on every later request", async () => {
    const server = await sdkServer({ json, configure: greetTool });
    const { client, transport } = await connect(server.url);
    expect(client.serverInfo?.name).toBe("sdk-test-server");
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(server.sessions.has(transport.sessionId as string)).toBe(true);

    const tools = await client.tools();
    expect(tools.map((t) => t.name)).toEqual(["greet"]);
    const result = await client.callTool("greet", { name: "Ada" });
    expect(result.content).toEqual([{ type: "text", text: "Hello, Ada!" }]);

    const posts = server.seen.filter((s) => s.method === "POST");
    expect(posts[0]?.rpc).toBe("initialize");
    expect(posts[0]?.headers["mcp-session-id"]).toBeUndefined();
    for (const post of posts) {
      expect(post.headers.accept).toContain("application/json");
      expect(post.headers.accept).toContain("text/event-stream");
      expect(post.headers["content-type"]).toBe("application/json");
    }
    for (const later of posts.slice(1)) {
      expect(later.headers["mcp-session-id"]).toBe(transport.sessionId);
      expect(later.headers["mcp-protocol-version"]).toBe(client.protocolVersion);
    }
    // notifications/initialized reaches the server before the first request after it.
    expect(posts.map((p) => p.rpc).slice(0, 3)).toEqual(["initialize", "notifications/initialized", "tools/list"]);
  });

  it("rejects a tool error answer as the server sent it", async () => {
    const server = await sdkServer({ json, configure: greetTool });
    const { client } = await connect(server.url);
    await expect(client.callTool("nope", {})).resolves.toMatchObject({ isError: true });
  });
});

describe("messages on the POST stream", () => {
  it("delivers logging and progress notifications before the result", async () => {
    const server = await sdkServer({ configure: chattyTool });
    const { client } = await connect(server.url);
    const order: string[] = [];
    client.on("notifications/message", (params) => order.push(`log ${params.data}`));
    const progress: Progress[] = [];
    const result = await client.callTool(
      "chatty",
      {},
      { onprogress: (p) => progress.push(p) && order.push("progress") },
    );
    order.push("result");
    expect(result.content).toEqual([{ type: "text", text: "done" }]);
    expect(progress).toEqual([
      { progress: 1, total: 2 },
      { progress: 2, total: 2 },
    ]);
    expect(order).toEqual(["log step 1", "progress", "log step 2", "progress", "result"]);
  });

  it("answers a server request (elicitation) made on the POST stream", async () => {
    const server = await sdkServer({
      configure: (s) =>
        s.registerTool("ask", { description: "Asks the user" }, async () => {
          const answer = await s.server.elicitInput({
            message: "Your name?",
            requestedSchema: { type: "object", properties: { name: { type: "string" } } },
          });
          return { content: [{ type: "text", text: `${answer.action}:${JSON.stringify(answer.content)}` }] };
        }),
    });
    const client = new Client({
      name: "http-test",
      version: "0.0.0",
      protocolVersion: "2025-11-25",
      elicitation: () => ({ action: "accept", content: { name: "Ada" } }),
    });
    await connect(server.url, {}, client);
    const result = await client.callTool("ask", {});
    expect(result.content).toEqual([{ type: "text", text: 'accept:{"name":"Ada"}' }]);
  });
});

describe("the standalone GET stream", () => {
  it("opens after the handshake and receives list_changed", async () => {
    let live: McpServer | undefined;
    const server = await sdkServer({
      configure: (s) => {
        live = s;
        greetTool(s);
      },
    });
    const { client, transport } = await connect(server.url);
    await until(() => server.seen.some((s) => s.method === "GET"), "the GET stream");
    const get = server.seen.find((s) => s.method === "GET");
    expect(get?.headers.accept).toBe("text/event-stream");
    expect(get?.headers["mcp-session-id"]).toBe(transport.sessionId);
    await until(() => server.getStreams.length === 1, "the SDK to open the GET stream");

    expect((await client.tools()).map((t) => t.name)).toEqual(["greet"]);
    const changed = new Promise<void>((resolve) => client.on("notifications/tools/list_changed", () => resolve()));
    // Registering a tool on a connected McpServer sends notifications/tools/list_changed.
    live?.registerTool("wave", { description: "Waves" }, async () => ({ content: [] }));
    await within(changed, 3000, "list_changed on the GET stream");
    expect((await client.tools()).map((t) => t.name)).toEqual(["greet", "wave"]);
  });

  it("is not opened when standaloneStream is false", async () => {
    const server = await sdkServer({ configure: greetTool });
    const { client } = await connect(server.url, { standaloneStream: false });
    await client.tools(); // a GET stream would be opened on connecting, before this request
    expect(server.seen.some((s) => s.method === "GET")).toBe(false);
  });
});

describe("headers, fetch and close", () => {
  it("sends custom headers (computed per request) on POST, GET and DELETE through the injected fetch", async () => {
    const server = await sdkServer({ configure: greetTool });
    let calls = 0;
    const methods: string[] = [];
    let token = 0;
    const { client } = await connect(server.url, {
      headers: () => ({ authorization: `Bearer t${++token}`, "x-trace": "yes", accept: "overridden?" }),
      fetch: (input, init) => {
        calls++;
        methods.push(init.method ?? "GET");
        return fetch(input, init);
      },
    });
    await client.callTool("greet", { name: "Bo" });
    await until(() => server.seen.some((s) => s.method === "GET"), "the GET stream");
    await client.close();
    expect(methods).toContain("POST");
    expect(methods).toContain("GET");
    expect(methods.at(-1)).toBe("DELETE");
    expect(calls).toBe(server.seen.length);
    for (const seen of server.seen) {
      expect(seen.headers.authorization).toMatch(/^Bearer t\d+$/);
      expect(seen.headers["x-trace"]).toBe("yes");
    }
    // The protocol's own headers win over the caller's.
    expect(server.seen.find((s) => s.method === "POST")?.headers.accept).toBe("application/json, text/event-stream");
    expect(new Set(server.seen.map((s) => s.headers.authorization)).size).toBe(server.seen.length);
  });

  it("ends the session with DELETE on close, and closes the client", async () => {
    const server = await sdkServer({ configure: greetTool });
    const { client, transport } = await connect(server.url);
    const id = transport.sessionId;
    await client.close();
    expect(server.deleted).toEqual([id]);
    expect(server.sessions.size).toBe(0);
    expect(client.isConnected).toBe(false);
    await expect(client.callTool("greet", { name: "x" })).rejects.toThrow(/not connected|closed/i);
  });
});
