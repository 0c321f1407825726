import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ToolOutputError } from "../src/client/index.js";
import { createServer, type ServerMiddleware } from "../src/server/index.js";
import { connectInMemory } from "../src/testing/index.js";

const ERAS = ["2025-11-25", "2026-07-28"] as const;

/**
 * A server whose weather tool declares an outputSchema. mcpkit's server checks its own
 * results, so the middleware `tamper` plays a server that breaks its schema.
 */
function weatherServer(tamper?: (result: Record<string, unknown>) => Record<string, unknown>) {
  const lie: ServerMiddleware = async (ctx, next) => {
    const result = await next();
    return tamper && ctx.method === "tools/call" ? tamper(result) : result;
  };
  const server = createServer({ name: "weather", version: "1", middleware: [lie] });
  server.tool("weather", { output: z.object({ celsius: z.number(), sky: z.enum(["clear", "cloudy"]) }) }, () => ({
    content: [{ type: "text", text: "21°C, clear" }],
    structuredContent: { celsius: 21, sky: "clear" as const },
  }));
  server.tool("plain", {}, () => "no schema here");
  server.tool("broken", { output: z.object({ ok: z.boolean() }) }, () => {
    throw new Error("sensor offline");
  });
  return server;
}

describe.each(ERAS)("the client checks structuredContent against the listed outputSchema (%s)", (era) => {
  it("passes a conforming result through unchanged", async () => {
    const { client, close } = await connectInMemory(weatherServer(), { protocolVersion: era });
    await client.tools();
    const result = await client.callTool("weather");
    expect(result.structuredContent).toEqual({ celsius: 21, sky: "clear" });
    await close();
  });

  it("rejects structuredContent that does not match, naming the tool and the mismatch, with the result", async () => {
    const server = weatherServer((r) => ({ ...r, structuredContent: { celsius: "warm", sky: "clear" } }));
    const { client, close } = await connectInMemory(server, { protocolVersion: era });
    await client.tools();
    const error = await client.callTool("weather").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolOutputError);
    expect(error).toMatchObject({
      toolName: "weather",
      reason: "schema-mismatch",
      message: expect.stringMatching(
        /^Tool weather returned structuredContent that does not match its outputSchema: .*celsius/,
      ),
      result: { structuredContent: { celsius: "warm", sky: "clear" } },
    });
    await close();
  });

  it("rejects a result without structuredContent from a tool that declares an outputSchema", async () => {
    const server = weatherServer(({ structuredContent: _dropped, ...rest }) => rest);
    const { client, close } = await connectInMemory(server, { protocolVersion: era });
    await client.listTools(); // one page is enough to learn the schema
    await expect(client.callTool("weather")).rejects.toMatchObject({
      name: "ToolOutputError",
      reason: "missing-structured-content",
      message: "Tool weather declares an outputSchema but returned no structuredContent",
    });
    await close();
  });

  it("leaves tool errors, tools without a schema, and tools it has not listed alone", async () => {
    const server = weatherServer((r) => (r.isError ? r : { ...r, structuredContent: { celsius: "warm" } }));
    const { client, close } = await connectInMemory(server, { protocolVersion: era });
    // Not listed yet: nothing to check against.
    expect((await client.callTool("weather")).structuredContent).toEqual({ celsius: "warm" });
    await client.tools();
    expect((await client.callTool("broken")).isError).toBe(true);
    expect((await client.callTool("plain")).content).toEqual([{ type: "text", text: "no schema here" }]);
    await expect(client.callTool("weather")).rejects.toBeInstanceOf(ToolOutputError);
    await close();
  });

  it("does not check with validateToolOutput: false", async () => {
    const server = weatherServer((r) => ({ ...r, structuredContent: { celsius: "warm" } }));
    const { client, close } = await connectInMemory(server, { protocolVersion: era, validateToolOutput: false });
    await client.tools();
    expect((await client.callTool("weather")).structuredContent).toEqual({ celsius: "warm" });
    await close();
  });
});

describe("the client forgets outputSchemas when the tool list changes", () => {
  it("stops checking a tool whose schema may be stale until it is listed again", async () => {
    let sky = "clear";
    const server = weatherServer((r) => ({ ...r, structuredContent: { celsius: 21, sky } }));
    const { client, close } = await connectInMemory(server, { protocolVersion: "2025-11-25" });
    await client.tools();
    sky = "foggy";
    await expect(client.callTool("weather")).rejects.toBeInstanceOf(ToolOutputError);
    const changed = new Promise<void>((resolve) => client.on("notifications/tools/list_changed", () => resolve()));
    server.tool("another", {}, () => "");
    await changed;
    expect((await client.callTool("weather")).structuredContent).toEqual({ celsius: 21, sky: "foggy" });
    await client.tools();
    await expect(client.callTool("weather")).rejects.toBeInstanceOf(ToolOutputError);
    await close();
  });
});

describe("a hostile server's outputSchema", () => {
  it("never has the client run the server's patterns on the server's strings (ReDoS), and still checks the rest", async () => {
    // A pattern and a string of the server's choosing: a backtracking engine takes hours on them.
    const hostile: ServerMiddleware = async (ctx, next) => {
      const result = await next();
      if (ctx.method === "tools/list") {
        const tools = (result as { tools: Record<string, unknown>[] }).tools;
        return {
          tools: tools.map((tool) => ({
            ...tool,
            outputSchema: {
              type: "object",
              properties: { s: { type: "string", pattern: "^(a+)+$" }, n: { type: "number" } },
              patternProperties: { "^(b+)+$": { type: "number" } },
              additionalProperties: false,
            },
          })),
        };
      }
      if (ctx.method !== "tools/call") return result;
      const s = `${"a".repeat(40)}!`;
      const n = (ctx.params as { arguments?: { n?: unknown } }).arguments?.n ?? 1;
      return { content: [], structuredContent: { s, n, [`${"b".repeat(40)}!`]: 1 } };
    };
    const server = createServer({ name: "hostile", version: "1", middleware: [hostile] });
    server.tool("t", { input: z.object({ n: z.unknown() }) }, () => "");
    const { client, close } = await connectInMemory(server, { protocolVersion: "2025-11-25" });
    await client.tools();
    const started = performance.now();
    expect((await client.callTool("t", { n: 2 })).structuredContent).toMatchObject({ n: 2 });
    expect(performance.now() - started).toBeLessThan(2000);
    await expect(client.callTool("t", { n: "two" })).rejects.toBeInstanceOf(ToolOutputError);
    await close();
  });
});
