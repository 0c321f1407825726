import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Client as SdkClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ListRootsRequestSchema, ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  closeAll,
  connectHttp,
  type Fixture,
  MCPKIT_BIN,
  makeFixture,
  SERVER_NODE,
  startHttp,
  textOf,
  waitFor,
  within,
} from "./helpers.js";

// The official TypeScript SDK's client (1.x) against `mcpkit serve workspace`, over stdio
// and Streamable HTTP: tools, resources, prompts and completion, and the roots flow of a
// third-party client, including roots/list_changed.

let fx: Fixture;
const clients: SdkClient[] = [];

beforeAll(() => {
  fx = makeFixture();
});
afterEach(async () => {
  for (const client of clients.splice(0)) await within(client.close(), 5000, "sdk close").catch(() => undefined);
  await closeAll();
});
afterAll(() => fx.cleanup());

function sdkClient(capabilities: Record<string, unknown> = {}): SdkClient {
  const client = new SdkClient({ name: "sdk-test", version: "1.0.0" }, { capabilities });
  clients.push(client);
  return client;
}

function stdio(args: string[] = []): StdioClientTransport {
  return new StdioClientTransport({
    command: SERVER_NODE,
    args: [MCPKIT_BIN, "serve", "workspace", "--root", fx.root, ...args],
    stderr: "pipe",
  });
}

/** The same checks over any transport. */
async function exercise(client: SdkClient): Promise<void> {
  expect(client.getServerVersion()).toMatchObject({ name: "mcpkit-workspace" });
  const { tools } = await client.listTools();
  expect(tools.find((t) => t.name === "read_file")?.annotations).toMatchObject({ readOnlyHint: true });

  const read = await client.callTool({ name: "read_file", arguments: { path: "README.md" } });
  expect(textOf(read)).toBe("# Demo\n\nA workspace for tests.\n");
  const refused = await client.callTool({ name: "read_file", arguments: { path: "../outside/secret.txt" } });
  expect(refused.isError).toBe(true);
  expect(textOf(refused)).toMatch(/outside the allowed directories/);

  const query = await client.callTool({ name: "read_query", arguments: { sql: "SELECT count(*) AS n FROM products" } });
  expect(query.structuredContent).toMatchObject({ rows: [[5]] });

  const resource = await client.readResource({ uri: pathToFileURL(join(fx.root, "docs", "guide.md")).href });
  expect(resource.contents[0]).toMatchObject({
    mimeType: "text/markdown",
    text: "# Guide\n\nSay Hello to everyone.\n",
  });
  await expect(client.readResource({ uri: `file://${fx.root}/%2e%2e/outside/secret.txt` })).rejects.toThrow(
    /outside the allowed directories/,
  );
  const { resourceTemplates } = await client.listResourceTemplates();
  expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(
    expect.arrayContaining(["file:///{+path}", "sqlite://schema/{table}"]),
  );

  const { prompts } = await client.listPrompts();
  expect(prompts.map((p) => p.name).sort()).toEqual([
    "analyze_data",
    "code_review",
    "explain-code",
    "explain_error",
    "review_code",
  ]);
  const review = await client.getPrompt({ name: "code_review", arguments: { code: "let x = 1" } });
  expect(review.messages[0]?.content).toMatchObject({ type: "text", text: expect.stringContaining("let x = 1") });
  const explain = await client.getPrompt({ name: "explain_error", arguments: { error_message: "ENOENT: x" } });
  expect(explain.messages[0]?.content).toMatchObject({ text: expect.stringContaining("ENOENT: x") });
  const completion = await client.complete({
    ref: { type: "ref/prompt", name: "analyze_data" },
    argument: { name: "table", value: "pro" },
  });
  expect(completion.completion.values).toEqual(["products"]);
}

describe("official SDK client → mcpkit serve workspace", () => {
  it("over stdio", async () => {
    const client = sdkClient();
    await within(client.connect(stdio()), 10_000, "connect");
    await exercise(client);
  });

  it("over Streamable HTTP", async () => {
    const server = await startHttp(["--root", fx.root]);
    const client = sdkClient();
    await within(client.connect(new StreamableHTTPClientTransport(server.url)), 10_000, "connect");
    await exercise(client);
  });

  it("asks for the client's roots once per change: cached per session, refreshed on roots/list_changed", async () => {
    let roots = [{ uri: pathToFileURL(join(fx.root, "src")).href, name: "src" }];
    let asked = 0;
    const client = sdkClient({ roots: { listChanged: true } });
    client.setRequestHandler(ListRootsRequestSchema, () => {
      asked++;
      return { roots };
    });
    await within(client.connect(stdio()), 10_000, "connect");
    const allowed = async () =>
      (
        (await client.callTool({ name: "list_allowed_directories", arguments: {} })).structuredContent as {
          directories: string[];
        }
      ).directories;
    expect(await allowed()).toEqual([join(fx.root, "src")]);
    expect(await allowed()).toEqual([join(fx.root, "src")]);
    const readme = await client.callTool({ name: "read_file", arguments: { path: join(fx.root, "README.md") } });
    expect(readme.isError).toBe(true);
    expect(asked).toBe(1);

    roots = [{ uri: pathToFileURL(join(fx.root, "docs")).href, name: "docs" }];
    await client.sendRootsListChanged();
    expect(await allowed()).toEqual([join(fx.root, "docs")]);
    expect(asked).toBe(2);
  });

  it("asks every time when the client did not declare roots.listChanged: it would never say they changed", async () => {
    let roots = [{ uri: pathToFileURL(join(fx.root, "src")).href, name: "src" }];
    let asked = 0;
    const client = sdkClient({ roots: {} });
    client.setRequestHandler(ListRootsRequestSchema, () => {
      asked++;
      return { roots };
    });
    await within(client.connect(stdio()), 10_000, "connect");
    const readable = async (path: string) =>
      !(await client.callTool({ name: "read_file", arguments: { path: join(fx.root, path) } })).isError;
    expect(await readable("src/index.ts")).toBe(true);
    expect(await readable("docs/guide.md")).toBe(false);
    expect(asked).toBe(2);

    // The roots change with no notification: the next request already sees them.
    roots = [{ uri: pathToFileURL(join(fx.root, "docs")).href, name: "docs" }];
    expect(await readable("docs/guide.md")).toBe(true);
    expect(await readable("src/index.ts")).toBe(false);
    expect(asked).toBe(4);
  });

  it("fails closed, with a message, when a client declares roots but cannot list them", async () => {
    const client = sdkClient({ roots: {} });
    client.setRequestHandler(ListRootsRequestSchema, () => {
      throw new Error("roots are unavailable");
    });
    await within(client.connect(stdio()), 10_000, "connect");
    const result = await client.callTool({ name: "read_file", arguments: { path: "README.md" } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^Could not learn the client's roots \(.*roots are unavailable.*\)/);
  });

  it("receives resources/updated for a subscribed file over HTTP", async () => {
    const server = await startHttp(["--root", fx.root, "--allow-write"]);
    const client = sdkClient();
    const updated: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      updated.push(n.params.uri);
    });
    await within(client.connect(new StreamableHTTPClientTransport(server.url)), 10_000, "connect");
    const uri = pathToFileURL(join(fx.root, "docs", "guide.md")).href;
    await client.subscribeResource({ uri });
    const written = await client.callTool({
      name: "write_file",
      arguments: { path: "docs/guide.md", content: "# Guide\n\nRewritten.\n" },
    });
    expect(textOf(written)).toMatch(/^Wrote /);
    await within(
      waitFor(() => updated.includes(uri), "resources/updated"),
      5000,
      "the update",
    );
  });
});

describe.each(["2025-11-25", "2026-07-28"] as const)(
  "mcpkit's own client over Streamable HTTP, protocol %s",
  (protocolVersion) => {
    it("calls tools, reads resources, gets prompts and completions", async () => {
      const server = await startHttp(["--root", fx.root]);
      const { client } = await connectHttp(server.url, { protocolVersion });
      expect(client.protocolVersion).toBe(protocolVersion);
      expect(textOf(await client.callTool("read_file", { path: "src/index.ts" }))).toContain("greet");
      const refused = await client.callTool("read_file", { path: "escape/secret.txt" });
      expect(textOf(refused)).toMatch(/symbolic link, outside the allowed directories/);
      const read = await client.readResource(pathToFileURL(join(fx.root, "image.png")).href);
      expect(read.contents[0]).toMatchObject({ mimeType: "image/png", blob: expect.any(String) });
      const prompt = await client.getPrompt("analyze_data", { table: "orders" });
      expect(prompt.messages).toHaveLength(2);
      const completion = await client.complete({
        ref: { type: "ref/resource", uri: "sqlite://schema/{table}" },
        argument: { name: "table", value: "cu" },
      });
      expect(completion.completion.values).toEqual(["customers"]);
    });
  },
);
