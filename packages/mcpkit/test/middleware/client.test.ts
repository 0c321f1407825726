import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { ClientMiddleware, ClientMiddlewareContext } from "../../src/client/index.js";
import { createServer } from "../../src/server/index.js";
import { connectInMemory } from "../../src/testing/index.js";

const ERAS = ["2025-11-25", "2026-07-28"] as const;

describe.each(ERAS)("client middleware (%s)", (era) => {
  function server() {
    const s = createServer({ name: "srv", version: "2" });
    const metas: unknown[] = [];
    s.tool("echo", { input: z.object({ text: z.string() }) }, (args, ctx) => {
      metas.push(ctx.meta);
      return args.text;
    });
    s.tool("ask", {}, async (_args, ctx) => {
      ctx.log("info", "asking");
      const answer = await ctx.elicit({ message: "Name?", schema: z.object({ name: z.string() }) });
      return `hello ${answer.content?.name}`;
    });
    return { s, metas };
  }

  it("wraps calls to the server in order, and can add _meta keys and rewrite arguments", async () => {
    const { s, metas } = server();
    const order: string[] = [];
    const seen: ClientMiddlewareContext[] = [];
    const { client, close } = await connectInMemory(s, { protocolVersion: era });
    client.use(
      async (ctx, next) => {
        order.push("outer>");
        seen.push(ctx);
        ctx.options = { ...ctx.options, meta: { ...ctx.options?.meta, "example.com/request": "r1" } };
        const result = await next();
        order.push("<outer");
        return result;
      },
      async (ctx, next) => {
        order.push("inner>");
        if (ctx.method === "tools/call") ctx.params = { ...ctx.params, arguments: { text: "rewritten" } };
        return next();
      },
    );
    const result = await client.callTool("echo", { text: "original" });
    expect(result.content).toEqual([{ type: "text", text: "rewritten" }]);
    expect(order).toEqual(["outer>", "inner>", "<outer"]);
    expect(metas[0]).toMatchObject({ "example.com/request": "r1" });
    expect(seen[0]).toMatchObject({
      side: "client",
      kind: "request",
      direction: "outbound",
      method: "tools/call",
      era: era === "2026-07-28" ? "modern" : "legacy",
      revision: era,
      server: { name: "srv", version: "2" },
      transport: "memory",
    });
    // Every typed call goes through the same chain.
    await client.listTools();
    expect(seen.map((c) => c.method)).toEqual(["tools/call", "tools/list"]);
    await close();
  });

  it("answers in place of the server when a middleware does not call next", async () => {
    const { s, metas } = server();
    const cache = new Map<string, object>();
    const cached: ClientMiddleware = async (ctx, next) => {
      const key = JSON.stringify([ctx.method, ctx.params]);
      const hit = cache.get(key);
      if (hit) return { ...hit };
      const result = await next();
      cache.set(key, result);
      return result;
    };
    const { client, close } = await connectInMemory(s, { protocolVersion: era, middleware: [cached] });
    await client.callTool("echo", { text: "once" });
    const again = await client.callTool("echo", { text: "once" });
    expect(again.content).toEqual([{ type: "text", text: "once" }]);
    expect(metas).toHaveLength(1);
    await close();
  });

  it("sees the server's requests (elicitation) and notifications (logs) as inbound", async () => {
    const { s } = server();
    const inbound: string[] = [];
    const { client, close } = await connectInMemory(s, {
      protocolVersion: era,
      elicitation: () => ({ action: "accept", content: { name: "Ada" } }),
      middleware: [
        async (ctx, next) => {
          if (ctx.direction === "inbound") inbound.push(`${ctx.kind} ${ctx.method}`);
          // Rewriting an answer to the server works the same way as a result from it.
          const result = await next();
          if (ctx.method === "elicitation/create") return { ...result, content: { name: "Grace" } };
          return result;
        },
      ],
    });
    const logs: unknown[] = [];
    client.on("notifications/message", (params) => logs.push(params.data));
    const result = await client.callTool("ask");
    expect(result.content).toEqual([{ type: "text", text: "hello Grace" }]);
    expect(inbound).toContain("request elicitation/create");
    expect(inbound).toContain("notification notifications/message");
    // A modern server replays the handler once the answer comes, so it may log again.
    expect(logs.length).toBeGreaterThan(0);
    expect(new Set(logs)).toEqual(new Set(["asking"]));
    await close();
  });

  it("reports a failing notification middleware to onError and still serves the client", async () => {
    const { s } = server();
    const errors: unknown[] = [];
    const { client, close } = await connectInMemory(s, {
      protocolVersion: era,
      onError: (e) => errors.push(e),
      elicitation: () => ({ action: "accept", content: { name: "Ada" } }),
      middleware: [
        (ctx, next) => {
          if (ctx.kind === "notification") throw new Error("observer broke");
          return next();
        },
      ],
    });
    const logs: unknown[] = [];
    client.on("notifications/message", (n) => logs.push(n));
    expect((await client.callTool("ask")).content).toEqual([{ type: "text", text: "hello Ada" }]);
    expect(logs).toEqual([]);
    expect(errors.length).toBeGreaterThan(0);
    for (const e of errors) expect(e).toMatchObject({ message: "observer broke" });
    await close();
  });
});
