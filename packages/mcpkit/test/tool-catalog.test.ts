import { describe, expect, it } from "vitest";
import { createServer, type McpServer, type ToolCatalogOptions } from "../src/server/index.js";
import { connectInMemory } from "../src/testing/index.js";

// Large catalogs (ServerOptions.toolCatalog): past the threshold, tools/list shows
// search_tools and call_tool; search ranks the whole catalog; every tool stays callable.

const WORDS = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet"];

/** A server with `n` filler tools and a few tools a search should find. */
function catalogServer(n: number, toolCatalog?: ToolCatalogOptions | false): McpServer {
  const server = createServer({ name: "big", version: "1", ...(toolCatalog !== undefined && { toolCatalog }) });
  for (let i = 0; i < n; i++)
    server.tool(
      `filler_${String(i).padStart(4, "0")}`,
      { description: `Does ${WORDS[i % 10]} things with ${WORDS[(i * 7) % 10]} records` },
      () => "filler",
    );
  server.tool(
    "createIssue",
    {
      description: "Open a new issue in a repository's tracker",
      input: {
        type: "object",
        properties: { repo: { type: "string" }, title: { type: "string" } },
        required: ["repo", "title"],
      },
    },
    ({ repo, title }) => `opened ${String(title)} in ${String(repo)}`,
  );
  server.tool("list_pull_requests", { description: "Lists pull requests of a repository" }, () => "prs");
  server.tool(
    "secret_admin_tool",
    { description: "Lists pull requests of every repository, for admins", visible: () => false },
    () => "hidden",
  );
  return server;
}

describe("tools/list with a large catalog", () => {
  it("lists every tool while the catalog is at or under the threshold", async () => {
    const { client, close } = await connectInMemory(catalogServer(97));
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(99); // 97 fillers, createIssue, list_pull_requests; the hidden one is not shown
    await close();
  });

  it("lists search_tools and call_tool (and the pinned tools) past the threshold, in far fewer bytes", async () => {
    const full = await connectInMemory(catalogServer(500, false));
    const fullBytes = JSON.stringify(await full.client.listTools()).length;
    await full.close();
    const { client, close } = await connectInMemory(catalogServer(500, { pinned: ["createIssue", "nope"] }));
    const listed = await client.listTools();
    expect(listed.tools.map((t) => t.name)).toEqual(["search_tools", "call_tool", "createIssue"]);
    expect(listed.nextCursor).toBeUndefined();
    expect(JSON.stringify(listed).length * 20).toBeLessThan(fullBytes);
    await close();
  });

  it("is on for any size with threshold 0, and off with toolCatalog: false", async () => {
    const small = await connectInMemory(catalogServer(0, { threshold: 0 }));
    expect((await small.client.listTools()).tools.map((t) => t.name)).toEqual(["search_tools", "call_tool"]);
    await small.close();
    const off = await connectInMemory(catalogServer(300, false));
    expect((await off.client.listTools()).tools).toHaveLength(302);
    await off.close();
  });
});

describe("search_tools", () => {
  it("ranks the right tool first from words of its description, with its input schema", async () => {
    const { client, close } = await connectInMemory(catalogServer(300));
    const result = await client.callTool("search_tools", { query: "open an issue in my repository", limit: 3 });
    const found = (result.structuredContent as { tools: { name: string; inputSchema: unknown }[] }).tools;
    expect(found[0]?.name).toBe("createIssue");
    expect(found[0]?.inputSchema).toMatchObject({ required: ["repo", "title"] });
    expect(found.length).toBeLessThanOrEqual(3);
    await close();
  });

  it("matches names split at camelCase and underscores, and word forms (pull requests ~ pull_requests)", async () => {
    const { client, close } = await connectInMemory(catalogServer(300));
    const result = await client.callTool("search_tools", { query: "pull request listing" });
    const names = (result.structuredContent as { tools: { name: string }[] }).tools.map((t) => t.name);
    expect(names[0]).toBe("list_pull_requests");
    await close();
  });

  it("never finds a tool hidden from the caller", async () => {
    const { client, close } = await connectInMemory(catalogServer(300));
    const result = await client.callTool("search_tools", { query: "admins pull requests every repository" });
    const names = (result.structuredContent as { tools: { name: string }[] }).tools.map((t) => t.name);
    expect(names).not.toContain("secret_admin_tool");
    expect(names).toContain("list_pull_requests");
    await close();
  });

  it("answers the same query the same way every time (ties broken by name)", async () => {
    const { client, close } = await connectInMemory(catalogServer(300));
    const ask = async () =>
      JSON.stringify((await client.callTool("search_tools", { query: "alpha records", limit: 20 })).structuredContent);
    const first = await ask();
    expect(await ask()).toBe(first);
    const names = (JSON.parse(first) as { tools: { name: string }[] }).tools.map((t) => t.name);
    expect(names).toHaveLength(20);
    await close();
  });

  it("says so when nothing matches, without repeating the query, and refuses a call without a query", async () => {
    const { client, close } = await connectInMemory(catalogServer(300));
    const none = await client.callTool("search_tools", { query: "zzzz qqqq" });
    expect(none.content[0]).toMatchObject({ text: "No tool matches the query. Try other words." });
    expect(JSON.stringify(none)).not.toContain("zzzz");
    const bad = await client.callTool("search_tools", {});
    expect(bad.isError).toBe(true);
    await close();
  });

  it("refuses a query over 1000 characters with -32602 naming the limit, in every era, and never echoes it", async () => {
    for (const revision of ["2025-06-18", "2025-11-25", "2026-07-28"] as const) {
      const { client, close } = await connectInMemory(catalogServer(300), { protocolVersion: revision });
      // 3 MB, as the attack sent: refused on its length, before any search or validation quotes it.
      const query = `${"alpha records ".repeat(220_000)}MARK-OF-THE-QUERY`;
      const refused = await client.callTool("search_tools", { query }).then(
        (result) => result,
        (error: unknown) => error,
      );
      expect(refused, revision).toMatchObject({ code: -32602 });
      const message = (refused as Error).message;
      expect(message).toContain("at most 1000 characters");
      expect(message.length).toBeLessThan(300);
      expect(JSON.stringify(refused)).not.toContain("MARK-OF-THE-QUERY");
      expect(JSON.stringify(refused)).not.toContain("alpha records");
      // At the limit it is served.
      const atLimit = await client.callTool("search_tools", { query: `alpha ${"x".repeat(994)}` });
      expect(atLimit.isError).toBeFalsy();
      await close();
    }
  });
});

describe("calling a large catalog", () => {
  it("calls what search found through call_tool, its arguments validated", async () => {
    const { client, close } = await connectInMemory(catalogServer(300));
    const ok = await client.callTool("call_tool", { name: "createIssue", arguments: { repo: "r", title: "t" } });
    expect(ok.content[0]).toMatchObject({ text: "opened t in r" });
    const invalid = await client.callTool("call_tool", { name: "createIssue", arguments: { repo: "r" } });
    expect(invalid.isError).toBe(true);
    const unknown = await client.callTool("call_tool", { name: "no_such_tool" });
    expect(unknown).toMatchObject({ isError: true, content: [{ text: "Unknown tool: no_such_tool" }] });
    const hidden = await client.callTool("call_tool", { name: "secret_admin_tool" });
    expect(hidden.isError).toBe(true);
    await close();
  });

  it("keeps every tool callable by its own name", async () => {
    const { client, close } = await connectInMemory(catalogServer(300));
    expect((await client.callTool("filler_0042", {})).content[0]).toMatchObject({ text: "filler" });
    expect((await client.callTool("createIssue", { repo: "a", title: "b" })).content[0]).toMatchObject({
      text: "opened b in a",
    });
    await close();
  });

  it("lets a registered tool named search_tools win over the catalog's", async () => {
    const server = catalogServer(300);
    server.tool("search_tools", {}, () => "mine");
    const { client, close } = await connectInMemory(server);
    expect((await client.callTool("search_tools", {})).content[0]).toMatchObject({ text: "mine" });
    await close();
  });
});
