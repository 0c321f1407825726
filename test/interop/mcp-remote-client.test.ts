/**
 * `mcp-remote` (npm), the stdio-to-HTTP bridge desktop clients use to reach remote
 * servers, as a client of mcpkit's servers: the official SDK's client on mcp-remote's
 * stdio, mcp-remote on `mcpkit serve everything` over Streamable HTTP, and on
 * `mcpkit serve proxy` fronting that server. Nothing here is mcpkit's but the servers.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Client as SdkClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeServed, serveHttp } from "../serve/helpers.js";
import { MCPKIT_BIN, SERVER_NODE } from "../workspace/helpers.js";

const require = createRequire(import.meta.url);
const MCP_REMOTE = join(dirname(require.resolve("mcp-remote/package.json")), "dist/proxy.js");
const config = mkdtempSync(join(tmpdir(), "mcpkit-mcp-remote-"));

interface Seen {
  logs: unknown[];
  updates: string[];
}

/** The SDK's client on mcp-remote's stdio, mcp-remote on `url`. */
async function throughMcpRemote(url: URL): Promise<{ client: SdkClient; seen: Seen }> {
  const seen: Seen = { logs: [], updates: [] };
  const client = new SdkClient(
    { name: "sdk-behind-mcp-remote", version: "1.0.0" },
    { capabilities: { sampling: {}, elicitation: { form: {} }, roots: { listChanged: true } } },
  );
  client.setRequestHandler(CreateMessageRequestSchema, () => ({
    role: "assistant",
    content: { type: "text", text: "Paris" },
    model: "test-model",
  }));
  client.setRequestHandler(ElicitRequestSchema, () => ({
    action: "accept",
    content: { username: "ada", email: "ada@example.com" },
  }));
  client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: [{ uri: "file:///behind-mcp-remote" }] }));
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void seen.logs.push(n.params.data));
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void seen.updates.push(n.params.uri));
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [MCP_REMOTE, url.href],
      env: { PATH: process.env.PATH ?? "", HOME: config, MCP_REMOTE_CONFIG_DIR: config },
      stderr: "ignore",
    }),
  );
  return { client, seen };
}

const targets: Record<string, { client: SdkClient; seen: Seen }> = {};

beforeAll(async () => {
  const [everything, proxy] = await Promise.all([
    serveHttp("everything", []),
    serveHttp("proxy", ["--", SERVER_NODE, MCPKIT_BIN, "serve", "everything"]),
  ]);
  [targets["serve everything"], targets["serve proxy"]] = await Promise.all([
    throughMcpRemote(everything.url),
    throughMcpRemote(proxy.url),
  ]);
}, 60_000);

afterAll(async () => {
  await Promise.all(Object.values(targets).map(({ client }) => client.close().catch(() => undefined)));
  await closeServed();
  rmSync(config, { recursive: true, force: true });
});

const textOf = (result: unknown) =>
  ((result as { content?: { type: string; text?: string }[] }).content ?? []).map((c) => c.text ?? "").join("");

for (const name of ["serve everything", "serve proxy"])
  describe(`mcp-remote on mcpkit ${name}`, () => {
    const target = () => targets[name] as { client: SdkClient; seen: Seen };

    it("lists, calls with progress, and reads", async () => {
      const { client } = target();
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(
        expect.arrayContaining(["add", "test_tool_with_progress", "test_sampling", "test_elicitation"]),
      );
      expect((await client.callTool({ name: "add", arguments: { a: 20, b: 22 } })).structuredContent).toEqual({
        sum: 42,
      });
      const progress: number[] = [];
      await client.callTool({ name: "test_tool_with_progress", arguments: {} }, undefined, {
        onprogress: (p) => progress.push(p.progress),
      });
      // The last one may cross the result inside mcp-remote, which forwards each message on its own.
      expect(progress.slice(0, 2)).toEqual([0, 50]);
      const read = await client.readResource({ uri: "test://template/7/data" });
      expect(read.contents[0]).toMatchObject({ uri: "test://template/7/data" });
    });

    it("gets prompts and completes arguments", async () => {
      const { client } = target();
      expect((await client.getPrompt({ name: "test_simple_prompt" })).messages.length).toBeGreaterThan(0);
      const completion = await client.complete({
        ref: { type: "ref/resource", uri: "test://template/{id}/data" },
        argument: { name: "id", value: "1" },
      });
      expect(completion.completion.values).toContain("12");
    });

    it("carries the server's sampling, elicitation and roots requests, its logs and resource updates", async () => {
      const { client, seen } = target();
      expect(textOf(await client.callTool({ name: "test_sampling", arguments: { prompt: "Capital?" } }))).toContain(
        "Paris",
      );
      expect(textOf(await client.callTool({ name: "test_elicitation", arguments: { message: "Who?" } }))).toContain(
        "ada@example.com",
      );
      expect(textOf(await client.callTool({ name: "test_list_roots", arguments: {} }))).toContain(
        "file:///behind-mcp-remote",
      );
      await client.setLoggingLevel("debug");
      await client.callTool({ name: "test_tool_with_logging", arguments: {} });
      expect(seen.logs.length).toBeGreaterThan(0);
      await client.subscribeResource({ uri: "test://watched-resource" });
      await client.callTool({ name: "test_update_watched_resource", arguments: { text: "v2" } });
      await expect.poll(() => seen.updates, { timeout: 10_000 }).toContain("test://watched-resource");
    });
  });
