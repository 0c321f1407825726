import { Client } from "mcpkit/client";
import { createStreamableHttpHandler, type Listening, listen } from "mcpkit/http";
import { streamableHttpClientTransport } from "mcpkit/http-client";
import { McpError } from "mcpkit/jsonrpc";
import { createServer } from "mcpkit/server";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";

/**
 * One definition, every revision. The tool below is written once; the same
 * test drives it over HTTP with a client that speaks 2025-11-25 (a real elicitation/create
 * request on the session) and with one that speaks 2026-07-28 (an input_required result,
 * answered and retried). Neither the handler nor the test knows which era it is in.
 */
function bookingServer() {
  const server = createServer({ name: "booking", version: "1" });
  const confirm = z.object({ confirm: z.boolean(), seats: z.number().int().min(1).default(2) });
  server.tool("book_table", { input: z.object({ date: z.string() }) }, async ({ date }, ctx) => {
    ctx.progress(1, 2, "checking availability");
    const answer = await ctx.elicit({ message: `Book a table on ${date}?`, schema: confirm });
    ctx.progress(2, 2, "done");
    if (answer.action !== "accept" || !answer.content?.confirm) return "cancelled";
    return `booked ${answer.content.seats} seats on ${date}`;
  });
  return server;
}

let listening: Listening | undefined;
afterEach(async () => {
  await listening?.close();
  listening = undefined;
});

describe.each(["2025-11-25", "2026-07-28"] as const)("the same eliciting tool on %s", (protocolVersion) => {
  it("asks the user through the client's elicitation handler and finishes with the answer", async () => {
    const handler = createStreamableHttpHandler(bookingServer());
    listening = await listen({ fetch: (r) => handler.fetch(r), close: () => handler.close() });
    const asked: string[] = [];
    const client = new Client({
      name: "diner",
      version: "1",
      protocolVersion,
      elicitation: (params) => {
        asked.push(params.message);
        return { action: "accept", content: { confirm: true } };
      },
    });
    await client.connect(streamableHttpClientTransport(new URL("/mcp", listening.url)));
    expect(client.protocolVersion).toBe(protocolVersion);
    const result = await client.callTool("book_table", { date: "Friday" });
    expect(result.content).toEqual([{ type: "text", text: "booked 2 seats on Friday" }]);
    expect(asked).toEqual(["Book a table on Friday?"]);
    const declined = new Client({
      name: "diner",
      version: "1",
      protocolVersion,
      elicitation: () => ({ action: "decline" }),
    });
    await declined.connect(streamableHttpClientTransport(new URL("/mcp", listening.url)));
    expect((await declined.callTool("book_table", { date: "Monday" })).content).toEqual([
      { type: "text", text: "cancelled" },
    ]);
    await client.close();
    await declined.close();
  });
});

/** A tool and a prompt asking the same question; the client's answer breaks the schema. */
function askingServer() {
  const server = createServer({ name: "asking", version: "1" });
  const confirm = z.object({ confirm: z.boolean() });
  server.tool("book_table", {}, async (_args, ctx) => {
    const answer = await ctx.elicit({ message: "Book it?", schema: confirm });
    return answer.action;
  });
  server.prompt("booking_note", {}, async (_args, ctx) => {
    const answer = await ctx.elicit({ message: "Book it?", schema: confirm });
    return `the user said ${answer.action}`;
  });
  return server;
}

describe.each(["2025-11-25", "2026-07-28"] as const)(
  "an elicitation answer that fails its schema on %s",
  (protocolVersion) => {
    it("is told with its reason by a prompt (-32602) as by a tool (an isError result), never as 'Internal error'", async () => {
      const handler = createStreamableHttpHandler(askingServer());
      listening = await listen({ fetch: (r) => handler.fetch(r), close: () => handler.close() });
      const client = new Client({
        name: "careless",
        version: "1",
        protocolVersion,
        elicitation: () => ({ action: "accept", content: { confirm: "yes" } }),
      });
      await client.connect(streamableHttpClientTransport(new URL("/mcp", listening.url)));
      expect(client.protocolVersion).toBe(protocolVersion);
      const reason = /^The client's elicitation answer does not match the schema: .*confirm/;
      const tool = await client.callTool("book_table");
      expect(tool.isError).toBe(true);
      expect(tool.content).toEqual([{ type: "text", text: expect.stringMatching(reason) }]);
      const prompt = await client.getPrompt("booking_note").then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(prompt).toBeInstanceOf(McpError);
      expect(prompt).toMatchObject({ code: -32602, message: expect.stringMatching(reason) });
      await client.close();
    });
  },
);
