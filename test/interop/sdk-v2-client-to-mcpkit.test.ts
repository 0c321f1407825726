import { fileURLToPath } from "node:url";
import { everythingServer } from "@mcpkit/servers/everything";
import { Client as SdkClient, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { createStreamableHttpHandler, type Listening, listen } from "mcpkit/http";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { within } from "../../packages/mcpkit/test/stdio/helpers.js";

/**
 * The official v2 client (@modelcontextprotocol/client 2.4, a 2026-07-28 implementation)
 * against mcpkit's everything server on the stateless path: HTTP and stdio.
 */

let listening: Listening;
let clients: SdkClient[] = [];
beforeEach(async () => {
  const handler = createStreamableHttpHandler(everythingServer().server);
  listening = await listen({ fetch: (r) => handler.fetch(r), close: () => handler.close() });
});
afterEach(async () => {
  for (const c of clients) await c.close().catch(() => {});
  clients = [];
  await listening.close();
});

async function modernClient(capabilities: Record<string, unknown> = {}) {
  const client = new SdkClient(
    { name: "sdk-v2", version: "2.4.0" },
    { capabilities, versionNegotiation: { mode: { pin: "2026-07-28" } } },
  );
  clients.push(client);
  await client.connect(new StreamableHTTPClientTransport(new URL("/mcp", listening.url)));
  return client;
}

const textOf = (result: { content?: unknown }) =>
  ((result.content as { type: string; text?: string }[] | undefined) ?? [])
    .map((c) => c.text ?? `[${c.type}]`)
    .join("|");

describe("official SDK v2 client → mcpkit on 2026-07-28", () => {
  it("discovers the server and calls tools without a handshake or session", async () => {
    const client = await modernClient();
    expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    expect(client.getDiscoverResult()?.supportedVersions).toContain("2026-07-28");
    expect(client.getServerVersion()).toMatchObject({ name: "mcpkit-everything" });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain("test_x_mcp_header");
    expect(textOf(await client.callTool({ name: "test_simple_text", arguments: {} }))).toBe(
      "This is a simple text response for testing.",
    );
    // The SDK mirrors the x-mcp-header parameter; mcpkit checks it against the body.
    expect(textOf(await client.callTool({ name: "test_x_mcp_header", arguments: { region: "Zürich" } }))).toBe(
      "region=Zürich",
    );
    const read = await client.readResource({ uri: "test://static-text" });
    expect(read.contents[0]).toMatchObject({ text: "This is the content of the static text resource." });
  });

  it("answers a multi round-trip request through its elicitation handler", async () => {
    const client = await modernClient({ elicitation: {} });
    const asked: string[] = [];
    client.setRequestHandler("elicitation/create", async (request) => {
      asked.push(String((request.params as { message?: string }).message));
      return { action: "accept", content: { name: "Alice" } };
    });
    const result = await client.callTool({ name: "test_input_required_result_elicitation", arguments: {} });
    expect(textOf(result)).toBe("Hello, Alice!");
    expect(asked).toEqual(["What is your name?"]);
  });

  it("receives list changes on a subscriptions/listen stream", async () => {
    const client = await modernClient();
    let changed = 0;
    const heard = new Promise<void>((resolve) =>
      client.setNotificationHandler("notifications/tools/list_changed", () => {
        changed++;
        resolve();
      }),
    );
    const subscription = await client.listen({ toolsListChanged: true });
    expect(subscription.honoredFilter).toEqual({ toolsListChanged: true });
    await client.callTool({ name: "test_trigger_tool_change", arguments: {} });
    await within(heard, 3000, "tools/list_changed on the listen stream");
    expect(changed).toBe(1);
    await subscription.close();
    expect(await subscription.closed).toBe("local");
  });

  it("negotiates the modern era with `mcpkit serve everything --stdio` through its server/discover probe", async () => {
    const bin = fileURLToPath(new URL("../../packages/cli/bin/mcpkit.js", import.meta.url));
    const client = new SdkClient({ name: "sdk-v2-stdio", version: "2.4.0" }, { versionNegotiation: { mode: "auto" } });
    clients.push(client);
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [bin, "serve", "everything", "--stdio"] }),
    );
    expect(client.getProtocolEra()).toBe("modern");
    expect(textOf(await client.callTool({ name: "echo", arguments: { text: "over stdio" } }))).toBe("over stdio");
  });
});
