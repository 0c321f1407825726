import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { OFFICIAL_SERVER_ENTRY } from "../../../../test/interop/helpers.js";
import { Client, type ClientOptions } from "../../src/client/index.js";
import type { JsonRpcMessage } from "../../src/jsonrpc/types.js";
import { type StdioClientTransport, stdioClientTransport } from "../../src/transports/stdio/index.js";
import { CLI_BIN, eventually, forceKill, within } from "../stdio/helpers.js";

// transports/stdio §Backward Compatibility: the client probes with server/discover; a
// DiscoverResult means a 2026-07-28 server, any other error or silence means an older one
// (then initialize). On stdio, cancellation is notifications/cancelled, and listen streams
// share the one channel, told apart by their subscription ids.

const FAKE = fileURLToPath(new URL("./fixtures/modern-stdio-server.mjs", import.meta.url));

const live: { client: Client; transport: StdioClientTransport }[] = [];

beforeAll(() => {
  if (!existsSync(`${CLI_BIN.replace("bin/mcpkit.js", "dist/main.js")}`))
    throw new Error("packages/cli/dist is missing: run `npx tsc -b packages/mcpkit packages/cli` first");
});

afterEach(async () => {
  for (const { client, transport } of live) {
    await within(client.close(), 5000, "client.close()").catch(() => undefined);
    forceKill(transport.pid, true);
  }
  live.length = 0;
});

/** Records what goes each way, keeping the transport itself (and so its `kind`). */
function tap(transport: StdioClientTransport) {
  const sent: JsonRpcMessage[] = [];
  const received: JsonRpcMessage[] = [];
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    if (!Array.isArray(message)) sent.push(message);
    send(message, options);
  };
  const start = transport.start.bind(transport);
  transport.start = (sink) =>
    start({
      message(value, info) {
        if (!Array.isArray(value)) received.push(value as JsonRpcMessage);
        sink.message(value, info);
      },
      invalid: (error) => sink.invalid(error),
      close: (reason) => sink.close(reason),
    });
  return { sent, received };
}

async function connect(args: string[], options: Partial<ClientOptions> = {}) {
  const transport = stdioClientTransport({ command: process.execPath, args, stderr: "pipe", killTimeoutMs: 1000 });
  const wire = tap(transport);
  const client = new Client({ name: "stdio-test", version: "1.0.0", timeoutMs: 5000, ...options });
  live.push({ client, transport });
  const started = performance.now();
  const described = await within(client.connect(transport), 10_000, "connect");
  return { client, transport, described, wire, took: performance.now() - started };
}

const methods = (messages: JsonRpcMessage[]) =>
  messages.filter((m) => "method" in m).map((m) => (m as { method: string }).method);
const textOf = (result: { content: unknown[] }) => (result.content[0] as { text: string }).text;

describe("a 2026-07-28 server on stdio", () => {
  it("is found by the probe and spoken to with the envelope on every request", async () => {
    const { client, described, wire } = await connect([FAKE]);
    expect(methods(wire.sent)).toEqual(["server/discover"]);
    expect(described).toMatchObject({
      era: "modern",
      protocolVersion: "2026-07-28",
      serverInfo: { name: "fake-stdio" },
    });
    const meta = JSON.parse(textOf(await client.callTool("echo_meta", {})));
    expect(meta).toEqual({
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": {},
      "io.modelcontextprotocol/clientInfo": { name: "stdio-test", version: "1.0.0" },
    });
    // x-mcp-header is an HTTP matter: on stdio the tools are neither checked nor listed first.
    expect(methods(wire.sent)).toEqual(["server/discover", "tools/call"]);
  });

  it("answers an input-required result and retries", async () => {
    const { client } = await connect([FAKE], { elicitation: () => ({ action: "accept", content: { name: "Ada" } }) });
    expect(textOf(await client.callTool("ask", {}))).toBe("hello Ada");
  });

  it("cancels with notifications/cancelled naming the request", async () => {
    const { client, wire } = await connect([FAKE]);
    const controller = new AbortController();
    const call = client.callTool("slow", {}, { signal: controller.signal });
    // Once the request is on the pipe, the cancellation follows it there.
    expect(await eventually(() => wire.sent.some((m) => "method" in m && m.method === "tools/call"), 5000)).toBe(true);
    controller.abort(new Error("enough"));
    await expect(call).rejects.toThrow("enough");
    const slowId = (wire.sent.find((m) => "method" in m && m.method === "tools/call") as { id: number }).id;
    const seen = JSON.parse(textOf(await client.callTool("received", {})));
    expect(seen.cancelled).toEqual([slowId]);
  });

  it("keeps listen streams apart by subscription id, and ends one with notifications/cancelled", async () => {
    const { client, wire } = await connect([FAKE]);
    const tools: string[] = [];
    const updates: unknown[] = [];
    const [toolsSub, resourceSub] = await Promise.all([
      client.listen({ toolsListChanged: true }, (n) => tools.push(n.method)),
      client.listen({ resourceSubscriptions: ["file:///watched"] }, (n) => updates.push(n.params?.uri)),
    ]);
    expect(toolsSub.filter).toEqual({ toolsListChanged: true });
    expect(resourceSub.filter).toEqual({ resourceSubscriptions: ["file:///watched"] });
    await client.callTool("poke", {}); // the server sends its notifications before the result
    expect(tools).toEqual(["notifications/tools/list_changed"]);
    expect(updates).toEqual(["file:///watched"]);

    await toolsSub.close();
    const cancels = wire.sent.filter((m) => "method" in m && m.method === "notifications/cancelled");
    expect(cancels.map((m) => (m as unknown as { params: { requestId: unknown } }).params.requestId)).toEqual([
      toolsSub.id,
    ]);
    await client.callTool("poke", {});
    expect(tools).toHaveLength(1);
    expect(updates).toEqual(["file:///watched", "file:///watched"]);
  });
});

describe("older servers on stdio", () => {
  it("falls back to initialize when the server stays silent, after the probe's timeout", async () => {
    const { client, described, wire, took } = await connect([FAKE, "--legacy-silent"], { discoverTimeoutMs: 300 });
    expect(described.era).toBe("legacy");
    expect(client.protocolVersion).toBe("2025-11-25");
    expect(client.serverInfo?.name).toBe("fake-legacy-stdio");
    const sent = methods(wire.sent);
    expect(sent[0]).toBe("server/discover");
    expect(sent).toContain("initialize");
    expect(took).toBeGreaterThanOrEqual(290);
    expect(took).toBeLessThan(3000);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["received"]);
  });

  it("falls back at once when the server answers the probe with an error (the official SDK v1 server)", async () => {
    const { client, described, wire, took } = await connect([OFFICIAL_SERVER_ENTRY, "stdio"], {
      discoverTimeoutMs: 10_000,
    });
    expect(described.era).toBe("legacy");
    expect(client.protocolVersion).toBe("2025-11-25");
    const probeAnswer = wire.received.find((m) => "error" in m);
    expect(probeAnswer).toBeDefined();
    // The error, not the 10 s timeout, decided.
    expect(took).toBeLessThan(5000);
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
  });

  it("speaks whichever era `mcpkit serve everything --stdio` answers the probe in", async () => {
    const { client, described, wire } = await connect([CLI_BIN, "serve", "everything", "--stdio"]);
    expect(methods(wire.sent)[0]).toBe("server/discover");
    const probeAnswer = wire.received.find((m) => "id" in m && !("method" in m)) as unknown as Record<string, unknown>;
    const answeredDiscover =
      "result" in probeAnswer &&
      Array.isArray((probeAnswer.result as { supportedVersions?: unknown }).supportedVersions);
    expect(described.era).toBe(answeredDiscover ? "modern" : "legacy");
    expect(methods(wire.sent).includes("initialize")).toBe(!answeredDiscover);
    const result = await client.callTool("test_simple_text", {});
    expect(textOf(result)).toBe("This is a simple text response for testing.");
  });
});
