import { Client } from "mcpkit/client";
import { createStreamableHttpHandler, type Listening, listen } from "mcpkit/http";
import { streamableHttpClientTransport } from "mcpkit/http-client";
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
