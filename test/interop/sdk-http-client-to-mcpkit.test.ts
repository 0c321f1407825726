import { everythingServer } from "@mcpkit/servers/everything";
import { Client as SdkClient } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { createSseHandler, createStreamableHttpHandler, type Listening, listen } from "mcpkit/http";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { within } from "../../packages/mcpkit/test/stdio/helpers.js";
import { waitFor } from "./helpers.js";

/** The everything server on 127.0.0.1, Streamable HTTP on /mcp and HTTP+SSE on /sse. */
async function serveEverything(): Promise<{ listening: Listening; base: URL }> {
  const server = everythingServer().server;
  const streamable = createStreamableHttpHandler(server, { retryMs: 100 });
  const legacy = createSseHandler(server);
  const listening = await listen({
    fetch(request) {
      const path = new URL(request.url).pathname;
      return path === "/mcp" ? streamable.fetch(request) : legacy.fetch(request);
    },
    close: async () => {
      await streamable.close();
      await legacy.close();
    },
  });
  return { listening, base: listening.url };
}

let served: Awaited<ReturnType<typeof serveEverything>>;
let clients: SdkClient[] = [];
beforeEach(async () => {
  served = await serveEverything();
});
afterEach(async () => {
  for (const c of clients) await c.close().catch(() => {});
  clients = [];
  await served.listening.close();
});

async function sdkClient(capabilities: Record<string, unknown> = {}) {
  const client = new SdkClient({ name: "sdk-http", version: "1.0.0" }, { capabilities });
  clients.push(client);
  const getStatuses: number[] = [];
  const transport = new StreamableHTTPClientTransport(new URL("/mcp", served.base), {
    // Records the answers to the SDK's GET requests, so a test can wait for its stream.
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      if ((init?.method ?? "GET") === "GET") getStatuses.push(response.status);
      return response;
    },
    reconnectionOptions: {
      initialReconnectionDelay: 50,
      maxReconnectionDelay: 200,
      reconnectionDelayGrowFactor: 1,
      maxRetries: 5,
    },
  });
  await client.connect(transport);
  return { client, transport, getStatuses };
}

const textOf = (result: object) =>
  (((result as { content?: unknown }).content as { type: string; text?: string }[] | undefined) ?? [])
    .map((c) => c.text ?? `[${c.type}]`)
    .join("|");

describe("official SDK Streamable HTTP client → mcpkit server", () => {
  it("initializes a session and calls tools, reads resources, gets prompts", async () => {
    const { client, transport } = await sdkClient();
    expect(transport.sessionId).toMatch(/^[\x21-\x7e]+$/);
    expect(client.getServerVersion()).toMatchObject({ name: "mcpkit-everything", title: "mcpkit everything server" });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain("test_reconnection");
    expect(textOf(await client.callTool({ name: "test_simple_text", arguments: {} }))).toBe(
      "This is a simple text response for testing.",
    );
    const add = await client.callTool({ name: "add", arguments: { a: 2, b: 3 } });
    expect(add.structuredContent).toEqual({ sum: 5 });
    const read = await client.readResource({ uri: "test://template/7/data" });
    expect(JSON.parse((read.contents[0] as { text: string }).text)).toMatchObject({ id: "7" });
    const prompt = await client.getPrompt({ name: "test_prompt_with_arguments", arguments: { arg1: "a", arg2: "b" } });
    expect(prompt.messages[0]?.content).toMatchObject({ text: "Prompt with arguments: arg1='a', arg2='b'" });
  });

  it("receives logs and progress on the POST's own stream before the result", async () => {
    const { client } = await sdkClient();
    const logs: string[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      logs.push(String(n.params.data));
    });
    const progress: number[] = [];
    const result = await client.callTool({ name: "test_tool_with_progress", arguments: {} }, undefined, {
      onprogress: (p) => progress.push(p.progress),
    });
    expect(textOf(result)).toBe("Progress test completed");
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    await client.callTool({ name: "test_tool_with_logging", arguments: {} });
    expect(logs).toEqual(["Tool execution started", "Tool processing data", "Tool execution completed"]);
  });

  it("answers sampling and elicitation requests sent on the POST stream", async () => {
    const { client } = await sdkClient({ sampling: {}, elicitation: {} });
    client.setRequestHandler(CreateMessageRequestSchema, async () => ({
      role: "assistant",
      content: { type: "text", text: "Paris" },
      model: "test-model",
    }));
    client.setRequestHandler(ElicitRequestSchema, async () => ({
      action: "accept",
      content: { username: "ada", email: "ada@example.com" },
    }));
    expect(textOf(await client.callTool({ name: "test_sampling", arguments: { prompt: "Capital of France?" } }))).toBe(
      "LLM response: Paris",
    );
    expect(textOf(await client.callTool({ name: "test_elicitation", arguments: { message: "Who?" } }))).toBe(
      'User response: action=accept, content={"username":"ada","email":"ada@example.com"}',
    );
  });

  it("resumes a stream the server dropped mid-call, with no message lost", async () => {
    const { client } = await sdkClient();
    const logs: string[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      logs.push(String(n.params.data));
    });
    const result = await client.callTool({ name: "test_reconnection", arguments: {} });
    expect(textOf(result)).toBe("Reconnection test completed");
    expect(logs).toEqual(["Closing the stream; reconnect to get the result"]);
  });

  it("hears tools/list_changed on the standalone GET stream", async () => {
    const { client, getStatuses } = await sdkClient();
    const changed = new Promise<void>((resolve) =>
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()),
    );
    // The SDK opens its GET stream after connecting: wait for the server to accept it.
    await waitFor(() => getStatuses.includes(200), "the server to accept the GET stream");
    await client.callTool({ name: "test_toggle_tool", arguments: {} });
    await within(changed, 3000, "tools/list_changed on the GET stream");
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).not.toContain("test_optional_tool");
  });

  it("ends the session on close (DELETE), after which the id is unknown", async () => {
    const { client, transport } = await sdkClient();
    const id = transport.sessionId as string;
    await transport.terminateSession();
    await client.close();
    const response = await fetch(new URL("/mcp", served.base), {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-session-id": id,
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "ping" }),
    });
    expect(response.status).toBe(404);
  });
});

describe("official SDK HTTP+SSE client (2024-11-05 transport) → mcpkit legacy endpoint", () => {
  it("connects through the endpoint event and calls tools", async () => {
    const client = new SdkClient({ name: "sdk-sse", version: "1.0.0" });
    clients.push(client);
    await client.connect(new SSEClientTransport(new URL("/sse", served.base)));
    const { tools } = await client.listTools();
    expect(tools.length).toBeGreaterThan(10);
    expect(textOf(await client.callTool({ name: "echo", arguments: { text: "over sse" } }))).toBe("over sse");
  });
});
