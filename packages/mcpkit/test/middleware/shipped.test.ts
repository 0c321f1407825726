import { describe, expect, it } from "vitest";
import { ErrorCode, McpError } from "../../src/jsonrpc/errors.js";
import {
  forMethod,
  logging,
  type MiddlewareContext,
  mapErrors,
  principalKey,
  RATE_LIMITED,
  rateLimit,
  responseSizeLimit,
  timing,
} from "../../src/middleware/index.js";
import { createServer, principalOf, type ServerMiddlewareContext } from "../../src/server/index.js";
import { connectInMemory } from "../../src/testing/index.js";

const ERAS = ["2025-11-25", "2026-07-28"] as const;

describe.each(ERAS)("the middleware mcpkit ships (%s)", (era) => {
  const connect = (server: ReturnType<typeof createServer>) => connectInMemory(server, { protocolVersion: era });

  it("rateLimit: a bucket per caller; an empty one refuses with a retry time, and refills", async () => {
    let now = 1_000_000;
    const server = createServer({
      name: "rl",
      version: "1",
      middleware: [
        rateLimit<ServerMiddlewareContext>({
          perSecond: 2,
          burst: 2,
          now: () => now,
          key: (ctx) => String((ctx.params?.arguments as { user?: string } | undefined)?.user ?? "nobody"),
        }),
      ],
    });
    server.tool("hit", {}, () => "ok");
    const { client, close } = await connect(server);
    await client.callTool("hit", { user: "ada" });
    await client.callTool("hit", { user: "ada" });
    const refused = await client.callTool("hit", { user: "ada" }).catch((e: McpError) => e);
    expect(refused).toBeInstanceOf(McpError);
    expect(refused).toMatchObject({
      code: RATE_LIMITED,
      message: expect.stringContaining("Retry after 500 ms"),
      data: { reason: "rate-limited", retryAfterMs: 500 },
    });
    // Another caller has a bucket of their own.
    expect((await client.callTool("hit", { user: "grace" })).content).toEqual([{ type: "text", text: "ok" }]);
    now += 500; // one token back
    await client.callTool("hit", { user: "ada" });
    await expect(client.callTool("hit", { user: "ada" })).rejects.toMatchObject({ code: RATE_LIMITED });
    await close();
  });

  it("responseSizeLimit: an oversized tool result becomes a tool error; other methods fail with the sizes", async () => {
    const server = createServer({ name: "big", version: "1", middleware: [responseSizeLimit({ maxBytes: 2000 })] });
    server.tool("small", {}, () => "x".repeat(100));
    server.tool("huge", {}, () => "x".repeat(5000));
    server.resource("file:///huge", { name: "huge" }, () => "y".repeat(5000));
    const { client, close } = await connect(server);
    expect((await client.callTool("small")).isError).toBeUndefined();
    const huge = await client.callTool("huge");
    expect(huge.isError).toBe(true);
    expect(huge.content[0]).toMatchObject({
      text: expect.stringMatching(/^The result of tool huge is \d+ bytes, over this server's limit of 2000 bytes/),
    });
    await expect(client.readResource("file:///huge")).rejects.toMatchObject({
      code: ErrorCode.InternalError,
      message: expect.stringContaining("resources/read"),
      data: { reason: "response-too-large", maxBytes: 2000 },
    });
    await close();
  });

  it("mapErrors: a handler's own error becomes the protocol error chosen for it", async () => {
    class NotFound extends Error {}
    const errors: unknown[] = [];
    const server = createServer({
      name: "map",
      version: "1",
      onError: (e) => errors.push(e),
      middleware: [
        mapErrors((error) =>
          error instanceof NotFound ? new McpError(ErrorCode.InvalidParams, `Not found: ${error.message}`) : undefined,
        ),
      ],
    });
    server.resourceTemplate("db://{id}", { name: "row" }, (_uri, { id }) => {
      if (id === "crash") throw new Error("disk on fire");
      throw new NotFound(`row ${id}`);
    });
    const { client, close } = await connect(server);
    await expect(client.readResource("db://7")).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
      message: "Not found: row 7",
    });
    // What the mapping leaves alone is answered as before: -32603, reported, nothing leaked.
    await expect(client.readResource("db://crash")).rejects.toMatchObject({
      code: ErrorCode.InternalError,
      message: "Internal error",
    });
    expect(errors).toEqual([expect.objectContaining({ message: "disk on fire" })]);
    await close();
  });

  it("timing and logging: one report per request, with its outcome", async () => {
    const entries: { method: string; outcome: string; durationMs: number }[] = [];
    const lines: string[] = [];
    const server = createServer({
      name: "t",
      version: "1",
      middleware: [
        timing(({ ctx, outcome, durationMs }) => entries.push({ method: ctx.method, outcome, durationMs })),
        logging({ write: (line) => lines.push(line), requestsOnly: true }),
      ],
    });
    server.tool("ok", {}, () => "fine");
    server.tool("fails", {}, () => {
      throw new Error("tool broke");
    });
    const { client, close } = await connect(server);
    entries.length = 0;
    lines.length = 0;
    await client.callTool("ok");
    await client.callTool("fails");
    await expect(client.request("prompts/get", { name: "missing" })).rejects.toBeInstanceOf(McpError);
    expect(entries.map(({ method, outcome }) => ({ method, outcome }))).toEqual([
      { method: "tools/call", outcome: "ok" },
      { method: "tools/call", outcome: "tool-error" },
      { method: "prompts/get", outcome: "error" },
    ]);
    for (const e of entries) expect(e.durationMs).toBeGreaterThanOrEqual(0);
    expect(lines).toEqual([
      expect.stringMatching(/^mcp <- tools\/call ok [\d.]+ms ok$/),
      expect.stringMatching(/^mcp <- tools\/call fails [\d.]+ms tool-error$/),
      expect.stringMatching(/^mcp <- prompts\/get missing [\d.]+ms error: -32601 /),
    ]);
    await close();
  });

  it("forMethod: typed params and result for one method; other messages pass untouched", async () => {
    const seen: string[] = [];
    const server = createServer({
      name: "typed",
      version: "1",
      middleware: [
        forMethod("tools/call", async (ctx, next) => {
          seen.push(ctx.params.name);
          const result = await next();
          return { ...result, content: [...result.content, { type: "text", text: `(${ctx.params.name})` }] };
        }),
      ],
    });
    server.tool("a", {}, () => "A");
    server.prompt("p", {}, () => "P");
    const { client, close } = await connect(server);
    expect((await client.callTool("a")).content).toEqual([
      { type: "text", text: "A" },
      { type: "text", text: "(a)" },
    ]);
    expect((await client.getPrompt("p")).messages).toHaveLength(1);
    expect(seen).toEqual(["a"]);
    await close();
  });

  it("the same middleware works on a client", async () => {
    const server = createServer({ name: "t", version: "1" });
    server.tool("ok", {}, () => "fine");
    const lines: string[] = [];
    const { client, close } = await connectInMemory(server, {
      protocolVersion: era,
      middleware: [logging({ write: (line) => lines.push(line) })],
    });
    await client.callTool("ok");
    expect(lines).toEqual([expect.stringMatching(/^mcp -> tools\/call ok [\d.]+ms ok$/)]);
    await close();
  });
});

describe("principalKey", () => {
  const ctx = (principal: unknown, sessionId?: string) =>
    ({ principal, sessionId, kind: "request", method: "tools/call" }) as MiddlewareContext;

  it("keys by the token's principal (issuer and subject, else client), else the session, else one anonymous bucket", () => {
    const issuer = "https://as.example";
    expect(principalKey(ctx({ issuer, subject: "u1", clientId: "c1" }, "s1"))).toBe(
      `principal:${principalOf({ issuer, subject: "u1" })}`,
    );
    expect(principalKey(ctx({ issuer, clientId: "c1" }, "s1"))).toBe(
      `principal:${principalOf({ issuer, clientId: "c1" })}`,
    );
    expect(principalKey(ctx(undefined, "s1"))).toBe("session:s1");
    expect(principalKey(ctx(undefined))).toBe("anonymous");
  });

  it("limits two principals separately with the default key", async () => {
    const limit = rateLimit({ perSecond: 1, burst: 1, now: () => 0 });
    const ok = async () => ({});
    await limit(ctx({ subject: "a" }), ok);
    await limit(ctx({ subject: "b" }), ok);
    expect(() => limit(ctx({ subject: "a" }), ok)).toThrow(/Rate limit exceeded/);
  });

  it("forgets the least recently used bucket past maxKeys", async () => {
    const limit = rateLimit({ perSecond: 1, burst: 1, maxKeys: 2, now: () => 0 });
    const ok = async () => ({});
    await limit(ctx({ subject: "a" }), ok);
    await limit(ctx({ subject: "b" }), ok);
    await limit(ctx({ subject: "c" }), ok); // "a" is forgotten: a fresh bucket
    await limit(ctx({ subject: "a" }), ok);
    expect(() => limit(ctx({ subject: "c" }), ok)).toThrow(/Rate limit exceeded/);
  });
});
