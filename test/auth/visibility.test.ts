/**
 * Visibility by principal over real Streamable HTTP with verified tokens, in both eras: a
 * 2025-11-25 session and 2026-07-28 requests (where the rule sees each request's own token).
 */
import { Client } from "mcpkit/client";
import { streamableHttpClientTransport } from "mcpkit/http-client";
import { createServer, principalOf } from "mcpkit/server";
import { describe, expect, it } from "vitest";
import { perTestAuthorizationServer, protectedMcp } from "./helpers.js";

const fixture = perTestAuthorizationServer();

function server(issuer: string) {
  const s = createServer({ name: "team", version: "1" });
  s.tool("search", {}, () => "results");
  s.tool(
    "delete_all",
    { visible: ({ principal }) => principal === principalOf({ issuer, subject: "alice" }) },
    (_a, ctx) => {
      return `deleted by ${(ctx.auth as { subject?: string }).subject}`;
    },
  );
  return s;
}

describe.each(["2025-11-25", "2026-07-28"] as const)("visibility by principal over HTTP, %s", (protocolVersion) => {
  it("lists and runs a tool for the principal its rule names, and hides it from another", async () => {
    const { as, closers } = fixture;
    const mcp = await protectedMcp(server(as.issuer), as);
    closers.push(mcp.close);
    const connect = async (sub: string) => {
      const token = await as.sign({ sub, scope: "tools:read" }, { audience: mcp.url });
      const client = new Client({ name: "t", version: "1", protocolVersion });
      await client.connect(
        streamableHttpClientTransport(new URL(mcp.url), { headers: { authorization: `Bearer ${token}` } }),
      );
      closers.push(() => client.close());
      return client;
    };
    const alice = await connect("alice");
    const bob = await connect("bob");
    expect(alice.protocolEra).toBe(protocolVersion === "2026-07-28" ? "modern" : "legacy");
    expect((await alice.listTools()).tools.map((t) => t.name)).toEqual(["delete_all", "search"]);
    expect((await bob.listTools()).tools.map((t) => t.name)).toEqual(["search"]);
    expect(await alice.callTool("delete_all")).toMatchObject({ content: [{ text: "deleted by alice" }] });
    await expect(bob.callTool("delete_all")).rejects.toMatchObject({
      code: -32602,
      message: "Unknown tool: delete_all",
    });
  });
});
