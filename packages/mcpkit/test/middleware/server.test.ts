import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ErrorCode, McpError } from "../../src/jsonrpc/errors.js";
import { rateLimit, timing } from "../../src/middleware/index.js";
import {
  createServer,
  type ServerMiddleware,
  type ServerMiddlewareContext,
  type ServerSession,
} from "../../src/server/index.js";
import { connectInMemory } from "../../src/testing/index.js";

const ERAS = ["2025-11-25", "2026-07-28"] as const;

function echoServer(middleware?: ServerMiddleware[]) {
  const server = createServer({ name: "mw", version: "1", middleware });
  const calls: unknown[] = [];
  server.tool("echo", { input: z.object({ text: z.string() }) }, (args) => {
    calls.push(args);
    return args.text;
  });
  return { server, calls };
}

describe.each(ERAS)("server middleware (%s)", (era) => {
  const connect = (server: ReturnType<typeof createServer>) => connectInMemory(server, { protocolVersion: era });

  it("wraps each request in the order installed, outermost first, and sees the era and revision", async () => {
    const order: string[] = [];
    const seen: ServerMiddlewareContext[] = [];
    const tag =
      (name: string): ServerMiddleware =>
      async (ctx, next) => {
        order.push(`${name}>`);
        if (name === "a") seen.push(ctx);
        const result = await next();
        order.push(`<${name}`);
        return result;
      };
    const { server } = echoServer([tag("a")]);
    server.use(tag("b"), tag("c"));
    const { client, close } = await connect(server);
    order.length = 0;
    const result = await client.callTool("echo", { text: "hi" });
    expect(result.content).toEqual([{ type: "text", text: "hi" }]);
    expect(order).toEqual(["a>", "b>", "c>", "<c", "<b", "<a"]);
    const call = seen.find((c) => c.method === "tools/call");
    expect(call).toMatchObject({
      side: "server",
      kind: "request",
      direction: "inbound",
      era: era === "2026-07-28" ? "modern" : "legacy",
      revision: era,
      params: { name: "echo", arguments: { text: "hi" } },
      client: { name: "test-client" },
      server: { name: "mw", version: "1" },
    });
    expect(call?.id).toBeDefined();
    // A legacy request belongs to the handshake's session; a modern one stands alone.
    expect(call?.session === undefined).toBe(era === "2026-07-28");
    await close();
  });

  it("answers in place of the handler when a middleware does not call next", async () => {
    const { server, calls } = echoServer([
      (ctx, next) =>
        ctx.method === "tools/call" && ctx.params?.name === "echo"
          ? { content: [{ type: "text", text: "from middleware" }] }
          : next(),
    ]);
    const { client, close } = await connect(server);
    const result = await client.callTool("echo", { text: "hi" });
    expect(result.content).toEqual([{ type: "text", text: "from middleware" }]);
    expect(calls).toEqual([]);
    await close();
  });

  it("rewrites the params the handler sees and the result the client gets", async () => {
    const { server, calls } = echoServer([
      async (ctx, next) => {
        if (ctx.method !== "tools/call") return next();
        const args = ctx.params?.arguments as { text: string };
        ctx.params = { ...ctx.params, arguments: { text: args.text.toUpperCase() } };
        const result = await next();
        return { ...result, content: [...(result.content as object[]), { type: "text", text: "(checked)" }] };
      },
    ]);
    const { client, close } = await connect(server);
    const result = await client.callTool("echo", { text: "loud" });
    expect(calls).toEqual([{ text: "LOUD" }]);
    expect(result.content).toEqual([
      { type: "text", text: "LOUD" },
      { type: "text", text: "(checked)" },
    ]);
    await close();
  });

  it("answers with the McpError a middleware throws, and a plain error as -32603 reported to onError", async () => {
    const reported: unknown[] = [];
    const server = createServer({
      name: "mw",
      version: "1",
      onError: (e) => reported.push(e),
      middleware: [
        (ctx, next) => {
          if (ctx.params?.name === "denied") throw new McpError(ErrorCode.InvalidRequest, "Not today: try tomorrow");
          if (ctx.params?.name === "broken") throw new Error("secret internal detail");
          return next();
        },
      ],
    });
    server.tool("denied", {}, () => "never");
    server.tool("broken", {}, () => "never");
    const { client, close } = await connect(server);
    await expect(client.callTool("denied")).rejects.toMatchObject({
      code: ErrorCode.InvalidRequest,
      message: "Not today: try tomorrow",
    });
    const broken = await client.callTool("broken").catch((e: McpError) => e);
    expect(broken).toMatchObject({ code: ErrorCode.InternalError, message: "Internal error" });
    expect(String((broken as McpError).message)).not.toContain("secret");
    expect(reported).toEqual([expect.objectContaining({ message: "secret internal detail" })]);
    await close();
  });

  it("refuses a middleware that calls next twice instead of running the handler twice", async () => {
    const reported: unknown[] = [];
    const server = createServer({
      name: "mw",
      version: "1",
      onError: (e) => reported.push(e),
      middleware: [
        async (ctx, next) => {
          if (ctx.method !== "tools/call") return next();
          await next();
          return next();
        },
      ],
    });
    let runs = 0;
    server.tool("count", {}, () => String(++runs));
    const { client, close } = await connect(server);
    await expect(client.callTool("count")).rejects.toMatchObject({ code: ErrorCode.InternalError });
    expect(runs).toBe(1);
    expect(reported).toEqual([expect.objectContaining({ message: expect.stringContaining("more than once") })]);
    await close();
  });

  it("applies middleware added after clients connected to their next requests", async () => {
    const { server } = echoServer();
    const { client, close } = await connect(server);
    expect((await client.callTool("echo", { text: "a" })).content).toEqual([{ type: "text", text: "a" }]);
    server.use(() => ({ content: [{ type: "text", text: "intercepted" }] }));
    expect((await client.callTool("echo", { text: "a" })).content).toEqual([{ type: "text", text: "intercepted" }]);
    await close();
  });

  it("gives the request's signal, aborted when the client cancels", async () => {
    let signal: AbortSignal | undefined;
    let entered!: () => void;
    const inside = new Promise<void>((r) => {
      entered = r;
    });
    const server = createServer({
      name: "mw",
      version: "1",
      middleware: [
        (ctx, next) => {
          if (ctx.method !== "tools/call") return next();
          signal = ctx.signal;
          entered();
          return new Promise((_, reject) => signal?.addEventListener("abort", () => reject(signal?.reason)));
        },
      ],
    });
    server.tool("slow", {}, () => "never");
    const { client, close } = await connect(server);
    const abort = new AbortController();
    const call = client.callTool("slow", {}, { signal: abort.signal });
    await inside;
    expect(signal?.aborted).toBe(false);
    abort.abort(new Error("changed my mind"));
    await expect(call).rejects.toThrow("changed my mind");
    await expect.poll(() => signal?.aborted).toBe(true);
    await close();
  });
});

describe.each(ERAS)("server middleware around what the server asks the client (%s)", (era) => {
  /** A tool that asks for everything a client can answer, and a middleware that records the outbound requests. */
  function askingServer(middleware: ServerMiddleware[]) {
    const server = createServer({ name: "mw", version: "1", middleware });
    server.tool("ask", {}, async (_args, ctx) => {
      const answer = await ctx.elicit({ message: "Name?", schema: { type: "object", properties: {} } });
      const roots = await ctx.listRoots();
      const sampled = await ctx.sample({ messages: [], maxTokens: 1 });
      return `${answer.action} ${roots.map((r) => r.uri).join(",")} ${(sampled.content as { text: string }).text}`;
    });
    return server;
  }
  const answering = (asked: string[]) => ({
    protocolVersion: era,
    roots: [{ uri: "file:///work" }],
    elicitation: (params: { message?: string }) => {
      asked.push(String(params.message));
      return { action: "accept" as const, content: {} };
    },
    sampling: () => ({ role: "assistant" as const, content: { type: "text" as const, text: "hi" }, model: "m" }),
  });

  it("runs sampling, elicitation and roots requests through the same chain, direction outbound", async () => {
    const seen: ServerMiddlewareContext[] = [];
    const server = askingServer([
      (ctx, next) => {
        seen.push(ctx);
        return next();
      },
    ]);
    const { client, close } = await connectInMemory(server, answering([]));
    expect((await client.callTool("ask")).content).toEqual([{ type: "text", text: "accept file:///work hi" }]);
    const outbound = seen.filter((c) => c.direction === "outbound");
    // A 2026-07-28 handler is replayed once per round: each round asks again, and the chain sees each.
    expect(new Set(outbound.map((c) => c.method))).toEqual(
      new Set(["elicitation/create", "roots/list", "sampling/createMessage"]),
    );
    for (const c of outbound) {
      expect(c).toMatchObject({
        side: "server",
        kind: "request",
        era: era === "2026-07-28" ? "modern" : "legacy",
        revision: era,
        client: { name: "test-client" },
        server: { name: "mw" },
        id: undefined,
      });
      expect(c.session === undefined).toBe(era === "2026-07-28");
      expect(c.signal).toBeInstanceOf(AbortSignal);
    }
    expect(seen.filter((c) => c.direction === "inbound").map((c) => c.method)).toContain("tools/call");
    await close();
  });

  // The tools/call requests of one call of "ask": 2026-07-28 sends it again each round (three questions, four rounds).
  const calls = era === "2026-07-28" ? 4 : 1;

  it("times them and limits them like the requests that come in", async () => {
    const timed: string[] = [];
    const server = askingServer([
      timing(({ ctx, outcome }) => timed.push(`${ctx.direction} ${ctx.method} ${outcome}`)),
      // Counting what the server asks too: the bucket holds the calls' tokens and no more.
      rateLimit({
        perSecond: 0.001,
        burst: calls,
        exempt: (ctx) => ctx.kind === "notification" || ctx.method === "initialize",
      }),
    ]);
    const { client, close } = await connectInMemory(server, answering([]));
    const result = await client.callTool("ask");
    expect(result).toMatchObject({
      isError: true,
      content: [{ text: expect.stringContaining("Rate limit exceeded") }],
    });
    expect(timed.some((t) => t.startsWith("outbound") && t.endsWith("error"))).toBe(true);
    expect(timed.filter((t) => t.startsWith("inbound tools/call")).at(-1)).toBe("inbound tools/call tool-error");
    await close();
  });

  it("by default, a rate limit counts the call and not what it asks the client", async () => {
    // Room for the calls (and a tools/list), not for their three questions as well.
    const server = askingServer([rateLimit({ perSecond: 0.001, burst: calls + 1 })]);
    const { client, close } = await connectInMemory(server, answering([]));
    expect((await client.callTool("ask")).content).toEqual([{ type: "text", text: "accept file:///work hi" }]);
    await close();
  });

  if (era === "2026-07-28")
    it("in the round that asks, next() resolves with input_required; in the next, with the answer", async () => {
      const results: unknown[] = [];
      const server = askingServer([
        async (ctx, next) => {
          const result = await next();
          if (ctx.method === "roots/list") results.push(result);
          return result;
        },
      ]);
      const { client, close } = await connectInMemory(server, answering([]));
      await client.callTool("ask");
      expect(results[0]).toEqual({ resultType: "input_required" });
      expect(results.at(-1)).toEqual({ roots: [{ uri: "file:///work" }] });
      await close();
    });

  it("lets a middleware rewrite an outbound request, or refuse it so the handler sees the failure", async () => {
    const asked: string[] = [];
    const server = askingServer([
      (ctx, next) => {
        if (ctx.direction !== "outbound") return next();
        if (ctx.method === "sampling/createMessage")
          throw new McpError(ErrorCode.InvalidRequest, "sampling is not allowed here");
        if (ctx.method === "elicitation/create") ctx.params = { ...ctx.params, message: "Name, please?" };
        return next();
      },
    ]);
    const { client, close } = await connectInMemory(server, answering(asked));
    const result = await client.callTool("ask");
    expect(asked.at(-1)).toBe("Name, please?");
    // The handler's ctx.sample failed: a tool error the model can read (server/tools §Error Handling).
    expect(result).toMatchObject({ isError: true, content: [{ text: expect.stringContaining("not allowed here") }] });
    await close();
  });
});

describe("server middleware, legacy era only", () => {
  it("sees initialize and the client's notifications, with the session", async () => {
    const seen: { kind: string; method: string; session: boolean; revision: string | undefined }[] = [];
    const rootsChanged: unknown[] = [];
    const server = createServer({
      name: "mw",
      version: "1",
      // The definition's own onNotification still runs after the chain.
      onNotification: (n) => rootsChanged.push(n.method),
      middleware: [
        (ctx, next) => {
          seen.push({ kind: ctx.kind, method: ctx.method, session: ctx.session !== undefined, revision: ctx.revision });
          return next();
        },
      ],
    });
    server.tool("t", {}, () => "");
    const { client, close } = await connectInMemory(server, { protocolVersion: "2025-11-25", roots: [] });
    client.setRoots([{ uri: "file:///tmp", name: "tmp" }]);
    await expect.poll(() => rootsChanged.length).toBe(1);
    expect(seen).toEqual([
      { kind: "request", method: "initialize", session: true, revision: undefined },
      { kind: "notification", method: "notifications/initialized", session: true, revision: "2025-11-25" },
      { kind: "notification", method: "notifications/roots/list_changed", session: true, revision: "2025-11-25" },
    ]);
    await close();
  });

  it("runs a request made on the session, outside any call, through the chain", async () => {
    const seen: { method: string; direction: string; session: boolean }[] = [];
    let opened!: (session: ServerSession) => void;
    const session = new Promise<ServerSession>((resolve) => (opened = resolve));
    const server = createServer({
      name: "mw",
      version: "1",
      onSession: (s) => opened(s),
      middleware: [
        (ctx, next) => {
          if (ctx.direction === "outbound")
            seen.push({ method: ctx.method, direction: ctx.direction, session: ctx.session !== undefined });
          return next();
        },
      ],
    });
    server.tool("t", {}, () => "");
    const { close } = await connectInMemory(server, {
      protocolVersion: "2025-11-25",
      roots: [{ uri: "file:///home" }],
    });
    expect(await (await session).request("roots/list", {})).toEqual({ roots: [{ uri: "file:///home" }] });
    expect(seen).toEqual([{ method: "roots/list", direction: "outbound", session: true }]);
    await close();
  });

  it("can drop a notification by not calling next", async () => {
    const got: unknown[] = [];
    const server = createServer({
      name: "mw",
      version: "1",
      onNotification: (n) => got.push(n.method),
      middleware: [(ctx, next) => (ctx.method === "notifications/roots/list_changed" ? {} : next())],
    });
    server.tool("t", {}, () => "");
    const { client, close } = await connectInMemory(server, { protocolVersion: "2025-11-25", roots: [] });
    client.setRoots([]);
    await client.callTool("t"); // a round trip: the notification was handled before this answer
    expect(got).toEqual([]);
    await close();
  });
});
