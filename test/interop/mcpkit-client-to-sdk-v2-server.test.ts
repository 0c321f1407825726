/**
 * Interoperability on the 2026-07-28 path: the mcpkit client against an OFFICIAL
 * @modelcontextprotocol/server v2 (createMcpHandler, served with @modelcontextprotocol/node
 * on a real node:http server on 127.0.0.1). The SDK server validates what the spec makes
 * it check (the _meta envelope, MCP-Protocol-Version, Mcp-Method/Mcp-Name, Mcp-Param-*
 * against x-mcp-header), so a call that succeeds here was well formed.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { toNodeHandler } from "@modelcontextprotocol/node";
import {
  acceptedContent,
  createMcpHandler,
  fromJsonSchema,
  inputRequired,
  type JsonSchemaType,
  type McpHttpHandler,
  McpServer,
} from "@modelcontextprotocol/server";
import type { JsonRpcNotification } from "mcpkit";
import { Client } from "mcpkit/client";
import { streamableHttpClientTransport } from "mcpkit/http-client";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { closeServed, serveHttp } from "../serve/helpers.js";
import { firstText, waitFor } from "./helpers.js";

interface Running {
  url: string;
  handler: McpHttpHandler;
  /** Every POST body and its headers, as the server received them. */
  posts: {
    headers: IncomingMessage["headers"];
    body: { id?: unknown; method?: string; params?: Record<string, unknown> };
  }[];
  close(): Promise<void>;
}

const running: Running[] = [];
const clients: Client[] = [];

afterEach(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  clients.length = 0;
  await Promise.all(running.map((r) => r.close()));
  running.length = 0;
});

/** server/tools §x-mcp-header: two parameters mirrored into headers, one not. */
const ROUTE_SCHEMA = {
  type: "object",
  properties: {
    region: { type: "string", "x-mcp-header": "Region" },
    count: { type: "integer", "x-mcp-header": "Count" },
    query: { type: "string" },
  },
  required: ["region"],
} as unknown as JsonSchemaType;

/** One SDK server definition, served to both eras by the SDK's own HTTP entry. */
function defineServer(): McpServer {
  const server = new McpServer(
    { name: "sdk-v2-interop", version: "2.4.0" },
    {
      instructions: "An official SDK v2 server.",
      cacheHints: { "tools/list": { ttlMs: 60_000, cacheScope: "public" } },
    },
  );
  server.registerTool(
    "add",
    { description: "Adds", inputSchema: z.object({ a: z.number(), b: z.number() }) },
    async ({ a, b }) => ({ content: [{ type: "text", text: String(a + b) }] }),
  );
  server.registerTool(
    "route",
    {
      description: "Mirrors its region into a header",
      inputSchema: fromJsonSchema<{ region: string; count?: number }>(ROUTE_SCHEMA),
    },
    async (args) => ({ content: [{ type: "text", text: `routed to ${args.region}` }] }),
  );
  server.registerTool(
    "book",
    { description: "Asks for confirmation first", inputSchema: z.object({ date: z.string() }) },
    async ({ date }, ctx) => {
      const answer = acceptedContent<{ confirm: boolean }>(ctx.mcpReq.inputResponses, "confirm");
      if (answer === undefined) {
        return inputRequired({
          inputRequests: {
            confirm: inputRequired.elicit({
              message: `Book ${date}?`,
              requestedSchema: { type: "object", properties: { confirm: { type: "boolean" } }, required: ["confirm"] },
            }),
          },
          requestState: `booking:${date}`,
        });
      }
      return { content: [{ type: "text", text: answer.confirm ? `booked ${date}` : "cancelled" }] };
    },
  );
  return server;
}

async function serve(): Promise<Running> {
  const handler = createMcpHandler(() => defineServer());
  const node = toNodeHandler(handler);
  const posts: Running["posts"] = [];
  const sockets = new Set<Socket>();
  const http: Server = createServer(async (req, res) => {
    if (req.method !== "POST") return void node(req, res);
    let text = "";
    for await (const chunk of req) text += chunk;
    const body = JSON.parse(text) as Running["posts"][number]["body"];
    posts.push({ headers: req.headers, body });
    await node(req, res, body);
  });
  http.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  const entry: Running = {
    url: `http://127.0.0.1:${port}/mcp`,
    handler,
    posts,
    close: async () => {
      await handler.close().catch(() => undefined);
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
  running.push(entry);
  return entry;
}

async function connect(server: Running, options: Partial<ConstructorParameters<typeof Client>[0]> = {}) {
  const client = new Client({ name: "mcpkit-interop", version: "1.0.0", timeoutMs: 10_000, ...options });
  clients.push(client);
  const described = await client.connect(streamableHttpClientTransport(server.url));
  return { client, described };
}

describe("mcpkit client → official SDK v2 server (2026-07-28 over Streamable HTTP)", () => {
  it("discovers the server and stays on 2026-07-28", async () => {
    const server = await serve();
    const { client, described } = await connect(server);
    expect(described.era).toBe("modern");
    expect(client.protocolVersion).toBe("2026-07-28");
    expect(client.discoverResult?.supportedVersions).toContain("2026-07-28");
    expect(client.serverInfo?.name).toBe("sdk-v2-interop");
    expect(client.instructions).toBe("An official SDK v2 server.");
    expect(client.serverCapabilities?.tools).toBeDefined();
    expect(server.posts.map((p) => p.body.method)).toEqual(["server/discover"]);
  });

  it("lists and calls tools; every request passes the server's envelope and header checks", async () => {
    const server = await serve();
    const { client } = await connect(server);
    const tools = await client.tools();
    expect(tools.map((t) => t.name).sort()).toEqual(["add", "book", "route"]);
    expect(firstText(await client.callTool("add", { a: 2, b: 40 }))).toBe("42");
    for (const post of server.posts) {
      expect(post.headers["mcp-protocol-version"]).toBe("2026-07-28");
      expect(post.headers["mcp-method"]).toBe(post.body.method);
      expect(post.body.params?._meta).toMatchObject({ "io.modelcontextprotocol/protocolVersion": "2026-07-28" });
    }
    expect(server.posts.some((p) => p.body.method === "initialize")).toBe(false);
  });

  it("mirrors x-mcp-header parameters, which the server checks against the body", async () => {
    const server = await serve();
    const { client } = await connect(server);
    expect(firstText(await client.callTool("route", { region: "Zürich", count: 3, query: "q" }))).toBe(
      "routed to Zürich",
    );
    const call = server.posts.find((p) => p.body.method === "tools/call");
    expect(call?.headers["mcp-name"]).toBe("route");
    expect(call?.headers["mcp-param-region"]).toBe(`=?base64?${Buffer.from("Zürich").toString("base64")}?=`);
    expect(call?.headers["mcp-param-count"]).toBe("3");
    expect(call?.headers["mcp-param-query"]).toBeUndefined();
  });

  it("the server refuses a call whose header disagrees with the body (so the check above is real)", async () => {
    const server = await serve();
    const response = await fetch(server.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tools/call",
        "mcp-name": "route",
        "mcp-param-region": "elsewhere",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: {
          name: "route",
          arguments: { region: "here" },
          _meta: {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
          },
        },
      }),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: number } }).error.code).toBe(-32020);
  });

  it("answers an input_required result with the elicitation handler and retries to completion", async () => {
    const server = await serve();
    const asked: string[] = [];
    const { client } = await connect(server, {
      elicitation: (params) => {
        asked.push(params.message);
        return { action: "accept", content: { confirm: true } };
      },
    });
    expect(firstText(await client.callTool("book", { date: "2026-08-01" }))).toBe("booked 2026-08-01");
    expect(asked).toEqual(["Book 2026-08-01?"]);
    const calls = server.posts.filter((p) => p.body.method === "tools/call");
    expect(calls).toHaveLength(2);
    expect(calls[1]?.body.id).not.toBe(calls[0]?.body.id);
    expect(calls[1]?.body.params).toMatchObject({
      requestState: "booking:2026-08-01",
      inputResponses: { confirm: { action: "accept", content: { confirm: true } } },
    });
  });

  it("keeps tools/list for the server's ttlMs", async () => {
    const server = await serve();
    const { client } = await connect(server);
    const page = await client.listTools();
    expect((page as unknown as { ttlMs: number }).ttlMs).toBe(60_000);
    await client.tools();
    await client.tools();
    expect(server.posts.filter((p) => p.body.method === "tools/list")).toHaveLength(2); // listTools() + one cached tools()
  });

  it("receives list changes on a subscriptions/listen stream", async () => {
    const server = await serve();
    const { client } = await connect(server);
    const got: JsonRpcNotification[] = [];
    const subscription = await client.listen({ toolsListChanged: true, promptsListChanged: true }, (n) => got.push(n));
    expect(subscription.filter.toolsListChanged).toBe(true);
    await client.tools();
    server.handler.notify.toolsChanged();
    await waitFor(() => got.length > 0, "tools/list_changed on the listen stream");
    expect(got[0]?.method).toBe("notifications/tools/list_changed");
    const meta = (got[0]?.params?._meta ?? {}) as Record<string, unknown>;
    expect(meta["io.modelcontextprotocol/subscriptionId"]).toBe(subscription.id);
    // The notification made the cached list stale.
    await client.tools();
    expect(server.posts.filter((p) => p.body.method === "tools/list")).toHaveLength(2);
    await subscription.close();
    expect(await subscription.closed).toEqual({ reason: "closed" });
  });
});

describe("the official SDK v2 server behind mcpkit serve proxy <url>", () => {
  afterEach(closeServed);

  it("declares what the server declares and no more, and crosses both eras: calls, header parameters, input requests", async () => {
    const server = await serve();
    const proxy = await serveHttp("proxy", [server.url]);
    const { client: direct } = await connect(server);
    const asked: string[] = [];
    const elicitation = (params: { message: string }) => {
      asked.push(params.message);
      return { action: "accept" as const, content: { confirm: true } };
    };
    for (const protocolVersion of ["2026-07-28", "2025-11-25"] as const) {
      const client = new Client({ name: "via-proxy", version: "1", timeoutMs: 10_000, protocolVersion, elicitation });
      clients.push(client);
      await client.connect(streamableHttpClientTransport(proxy.url));
      // No resources.subscribe, no listChanged the server did not promise (a proxy must not invent them).
      expect(client.serverCapabilities).toEqual(direct.serverCapabilities);
      expect(client.serverInfo?.name).toBe("sdk-v2-interop");
      expect(firstText(await client.callTool("add", { a: 2, b: 3 }))).toBe("5");
      expect(firstText(await client.callTool("route", { region: "eu-west", count: 2 }))).toBe("routed to eu-west");
      expect(firstText(await client.callTool("book", { date: "2026-12-01" }))).toBe("booked 2026-12-01");
      expect(asked.at(-1)).toBe("Book 2026-12-01?");
    }
  }, 60_000);
});
