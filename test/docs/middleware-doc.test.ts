import { readFileSync } from "node:fs";
import { Client } from "mcpkit/client";
import { McpError, RATE_LIMITED } from "mcpkit/middleware";
import { createServer, requestKey } from "mcpkit/server";
import { connectInMemory } from "mcpkit/testing";
import { describe, expect, it } from "vitest";
import { account, createAccountsServer } from "../../examples/middleware/accounts-server.mjs";
import { correlate } from "../../examples/middleware/correlated-client.mjs";
import { createNotesServer } from "../../examples/middleware/notes-server.mjs";

// docs/middleware.md and docs/observability.md show code quoted from examples/ files,
// which tsc checks and these tests run; a quote that drifts from its file fails here.

const ROOT = new URL("../../", import.meta.url);
const quotes = (doc: string) =>
  [
    ...readFileSync(new URL(`docs/${doc}`, ROOT), "utf8").matchAll(
      /<!-- quoted from (\S+) -->\n```\w*\n([\s\S]*?)```/g,
    ),
  ].map((m) => ({ file: m[1] as string, text: m[2] as string }));

describe.each(["middleware.md", "observability.md"])("docs/%s", (doc) => {
  it("quotes its examples verbatim from the files the tests run", () => {
    const found = quotes(doc);
    expect(found.length).toBeGreaterThanOrEqual(2);
    for (const { file, text } of found) expect(readFileSync(new URL(file, ROOT), "utf8"), file).toContain(text);
  });
});

describe.each(["2025-11-25", "2026-07-28"] as const)("examples/middleware (%s)", (era) => {
  it("accounts-server: a value the middleware set reaches the handler of that request only", async () => {
    const server = createAccountsServer(new Map([["ada", { name: "Ada", plan: "pro" as const }]]));
    const ada = await connectInMemory(server, { protocolVersion: era, name: "ada" });
    const stranger = await connectInMemory(server, { protocolVersion: era, name: "bob" });
    expect((await ada.client.callTool("plan")).content).toEqual([{ type: "text", text: "Ada is on the pro plan" }]);
    // Values live as long as their request: the next caller's starts empty.
    expect((await stranger.client.callTool("plan")).content).toEqual([
      { type: "text", text: "Unknown caller: sign up first" },
    ]);
    await ada.close();
    await stranger.close();
  });

  it("a request's values reach its handler's requests to the client, through the middleware", async () => {
    const seen: unknown[] = [];
    const caller = requestKey<string>("caller");
    const server = createServer({ name: "s", version: "1" });
    server.use((ctx, next) => {
      if (ctx.direction === "inbound") ctx.set(caller, `caller of ${ctx.method}`);
      else seen.push(ctx.get(caller));
      return next();
    });
    server.tool("ask", {}, async (_args, ctx) => {
      const roots = await ctx.listRoots();
      return `${ctx.get(caller)}, ${roots.length} roots`;
    });
    server.tool("plain", {}, (_args, ctx) => String(ctx.get(account)));
    const { client, close } = await connectInMemory(server, { protocolVersion: era, roots: [] });
    expect((await client.callTool("ask")).content).toEqual([{ type: "text", text: "caller of tools/call, 0 roots" }]);
    expect(seen).toContain("caller of tools/call");
    // A key nobody set reads as undefined.
    expect((await client.callTool("plain")).content).toEqual([{ type: "text", text: "undefined" }]);
    await close();
  });

  it("notes-server: serves, maps its own errors, answers for the handler while read-only", async () => {
    const { server, setReadOnly, slowCalls } = createNotesServer();
    const { client, close } = await connectInMemory(server, { protocolVersion: era });
    expect((await client.callTool("add_note", { text: "Call Ada" })).content).toEqual([
      { type: "text", text: "Added note 2" },
    ]);
    expect((await client.readResource("note://2")).contents).toMatchObject([{ text: "Call Ada" }]);
    await expect(client.readResource("note://9")).rejects.toMatchObject({
      code: -32602,
      message: "There is no note 9: list notes with resources/list",
    });
    setReadOnly(true);
    const refused = await client.callTool("add_note", { text: "x" });
    expect(refused).toMatchObject({ isError: true, content: [{ text: expect.stringContaining("read-only") }] });
    expect(slowCalls).toEqual([]);
    await close();
  });

  it("notes-server: the rate limit refuses past the burst, saying when to retry", async () => {
    const { server } = createNotesServer({ perSecond: 1, burst: 2 });
    const { client, close } = await connectInMemory(server, { protocolVersion: era });
    await client.callTool("add_note", { text: "a" });
    await client.callTool("add_note", { text: "b" });
    const error = await client.callTool("add_note", { text: "c" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect(error).toMatchObject({ code: RATE_LIMITED, message: expect.stringMatching(/Retry after \d+ ms/) });
    await close();
  });

  it("correlated-client: every call carries a correlation id, and failures are reported with it", async () => {
    const server = createServer({ name: "s", version: "1" });
    const seen: unknown[] = [];
    server.tool("t", {}, (_args, ctx) => {
      seen.push(ctx.meta?.["example.com/correlation-id"]);
      return "ok";
    });
    const reports: string[] = [];
    const { client, close } = await connectInMemory(server, {
      protocolVersion: era,
      middleware: [correlate((l) => reports.push(l))],
    });
    await client.callTool("t");
    expect(seen).toEqual([expect.stringMatching(/^[0-9a-f-]{36}$/)]);
    await expect(client.request("prompts/get", { name: "none" })).rejects.toBeInstanceOf(McpError);
    expect(reports).toEqual([expect.stringMatching(/^prompts\/get failed \(correlation id [0-9a-f-]{36}\): /)]);
    expect(client).toBeInstanceOf(Client);
    await close();
  });
});
