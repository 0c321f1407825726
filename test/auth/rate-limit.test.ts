import { Client } from "mcpkit/client";
import { streamableHttpClientTransport } from "mcpkit/http-client";
import { RATE_LIMITED, rateLimit } from "mcpkit/middleware";
import { createServer } from "mcpkit/server";
import { describe, expect, it } from "vitest";
import { perTestAuthorizationServer, protectedMcp } from "./helpers.js";

// rateLimit's default key is the verified principal: the OAuth token's subject, over a real
// HTTP server checking real tokens. One person's sessions (legacy) or requests (modern)
// share a bucket; another person has their own. Only tools/call counts here: a modern
// client on HTTP lists the tools before its first call (for x-mcp-header parameters).

const fx = perTestAuthorizationServer();

describe.each(["2025-11-25", "2026-07-28"] as const)("rateLimit per OAuth subject over HTTP (%s)", (era) => {
  it("counts every connection of one subject together and each subject apart", async () => {
    const server = createServer({
      name: "limited",
      version: "1",
      middleware: [rateLimit({ perSecond: 0.001, burst: 2, exempt: (ctx) => ctx.method !== "tools/call" })],
    });
    server.tool("hit", {}, () => "ok");
    const mcp = await protectedMcp(server, fx.as);
    fx.closers.push(mcp.close);
    const connect = async (sub: string) => {
      const token = await fx.as.sign({ aud: mcp.url, sub, scope: "tools:read" });
      const client = new Client({ name: `client-${sub}`, version: "1", protocolVersion: era });
      await client.connect(streamableHttpClientTransport(mcp.url, { headers: { authorization: `Bearer ${token}` } }));
      fx.closers.push(() => client.close());
      return client;
    };
    const ada1 = await connect("ada");
    const ada2 = await connect("ada");
    const grace = await connect("grace");
    await ada1.callTool("hit");
    await ada2.callTool("hit");
    await expect(ada1.callTool("hit")).rejects.toMatchObject({
      code: RATE_LIMITED,
      message: expect.stringContaining("Rate limit exceeded: tools/call refused"),
      data: { reason: "rate-limited", retryAfterMs: expect.any(Number) },
    });
    await expect(ada2.callTool("hit")).rejects.toMatchObject({ code: RATE_LIMITED });
    expect((await grace.callTool("hit")).content).toEqual([{ type: "text", text: "ok" }]);
  });
});
