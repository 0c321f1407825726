import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { Client } from "../src/client/client.js";
import { McpError } from "../src/jsonrpc/errors.js";
import type { JsonRpcNotification } from "../src/jsonrpc/types.js";
import type { CreateMessageParams, ElicitParams } from "../src/protocol/types/features.js";
import { ClientRequestError, createServer } from "../src/server/index.js";
import { connectInMemory, createLinkedPair } from "../src/testing/index.js";
import { nextNotification, recordSent, recordSentMethods } from "./helpers.js";

function asker() {
  const server = createServer({ name: "s", version: "1" });
  server.tool("sample", {}, async (_a, ctx) => {
    const r = await ctx.sample({ messages: [{ role: "user", content: { type: "text", text: "2+2?" } }], maxTokens: 5 });
    return `model said ${JSON.stringify(r.content)}`;
  });
  server.tool("sample_tools", {}, async (_a, ctx) => {
    const r = await ctx.sample({
      messages: [{ role: "user", content: { type: "text", text: "time?" } }],
      maxTokens: 5,
      tools: [{ name: "clock", inputSchema: { type: "object" } }],
    });
    return r.stopReason ?? "";
  });
  server.tool("confirm", {}, async (_a, ctx) => {
    const r = await ctx.elicit({
      message: "Book it?",
      schema: z.object({ ok: z.boolean(), seats: z.number().int().min(1).default(2) }),
    });
    return r.action === "accept" ? `ok=${r.content?.ok} seats=${r.content?.seats}` : r.action;
  });
  server.tool("visit", {}, async (_a, ctx) => {
    const r = await ctx.elicit({ mode: "url", message: "Log in", url: "https://example.com/login" });
    ctx.elicitationComplete(r.elicitationId);
    return `${r.action}:${r.elicitationId}`;
  });
  server.tool("roots", {}, async (_a, ctx) => JSON.stringify(await ctx.listRoots()));
  return server;
}

describe("server to client requests", () => {
  it("asks the client's model (sampling/createMessage)", async () => {
    const sampling = vi.fn((_p: CreateMessageParams) => ({
      role: "assistant" as const,
      content: { type: "text" as const, text: "4" },
      model: "tiny",
    }));
    const { client } = await connectInMemory(asker(), { sampling });
    expect((await client.callTool("sample")).content[0]).toEqual({
      type: "text",
      text: 'model said {"type":"text","text":"4"}',
    });
    expect(sampling.mock.calls[0]?.[0]).toMatchObject({ maxTokens: 5, messages: [{ role: "user" }] });
  });

  it("offers tools in sampling only to a client that declared sampling.tools", async () => {
    const sampling = () => ({
      role: "assistant" as const,
      content: { type: "text" as const, text: "" },
      model: "m",
      stopReason: "toolUse",
    });
    const plain = await connectInMemory(asker(), { sampling });
    await expect(plain.client.callTool("sample_tools")).rejects.toMatchObject({
      data: { requiredCapabilities: { sampling: { tools: {} } } },
    });
    const capable = await connectInMemory(asker(), { sampling, capabilities: { sampling: { tools: {} } } });
    expect((await capable.client.callTool("sample_tools")).content[0]).toEqual({ type: "text", text: "toolUse" });
  });

  it("never sends a request the client did not declare", async () => {
    const [a, b] = createLinkedPair();
    const sent = recordSentMethods(b);
    await asker().connect(b);
    const client = new Client({ name: "c", version: "1" });
    await client.connect(a);
    for (const tool of ["sample", "confirm", "roots", "visit"]) {
      await expect(client.callTool(tool)).rejects.toMatchObject({ code: -32600 });
    }
    expect(sent.filter((m) => !m.startsWith("notifications/"))).toEqual([]);
  });

  it("elicits with a zod schema, sends the restricted JSON Schema, applies defaults and types the answer", async () => {
    let asked: ElicitParams | undefined;
    const { client } = await connectInMemory(asker(), {
      elicitation: (params) => {
        asked = params;
        return { action: "accept", content: { ok: true } };
      },
    });
    expect((await client.callTool("confirm")).content[0]).toEqual({ type: "text", text: "ok=true seats=2" });
    expect(asked).toMatchObject({
      mode: "form",
      message: "Book it?",
      requestedSchema: {
        type: "object",
        properties: { ok: { type: "boolean" }, seats: { type: "integer", default: 2 } },
      },
    });
    expect(asked && "requestedSchema" in asked && asked.requestedSchema.$schema).toBeFalsy();
  });

  it("reports an answer that does not match the schema as a tool error", async () => {
    const { client } = await connectInMemory(asker(), {
      elicitation: () => ({ action: "accept", content: { ok: "yes" } }),
    });
    const result = await client.callTool("confirm");
    expect(result.isError).toBe(true);
    expect(result.content[0]).toMatchObject({ text: expect.stringContaining("does not match the schema") });
  });

  it("passes decline and cancel through", async () => {
    const { client } = await connectInMemory(asker(), { elicitation: () => ({ action: "decline" }) });
    expect((await client.callTool("confirm")).content[0]).toEqual({ type: "text", text: "decline" });
  });

  it("elicits through a URL when the client declared URL mode, then announces completion", async () => {
    const completed: unknown[] = [];
    const { client } = await connectInMemory(asker(), {
      elicitation: (params) => {
        expect(params).toMatchObject({
          mode: "url",
          url: "https://example.com/login",
          elicitationId: expect.any(String),
        });
        return { action: "accept" };
      },
      capabilities: { elicitation: { url: {} } },
    });
    client.on("notifications/elicitation/complete", (p) => completed.push(p.elicitationId));
    const notified = nextNotification(client, "notifications/elicitation/complete");
    const text = (await client.callTool("visit")).content[0] as { text: string };
    const id = text.text.split(":")[1];
    await notified;
    await client.ping(); // and no second one came before the answer to a later request
    expect(text.text.startsWith("accept:")).toBe(true);
    expect(completed).toEqual([id]);
  });

  it("lists roots, and hears when the client's roots change", async () => {
    const notes: JsonRpcNotification[] = [];
    const server = asker();
    const [a, b] = createLinkedPair();
    await server.connect(b, { onNotification: (n) => notes.push(n) });
    const client = new Client({
      name: "c",
      version: "1",
      roots: [{ uri: "file:///home/me/project", name: "project" }],
    });
    await client.connect(a);
    expect((await client.callTool("roots")).content[0]).toEqual({
      type: "text",
      text: '[{"uri":"file:///home/me/project","name":"project"}]',
    });
    client.setRoots([{ uri: "file:///tmp" }]);
    await client.ping(); // the server reads the notification before this later request
    expect(notes.map((n) => n.method)).toEqual(["notifications/roots/list_changed"]);
    expect((await client.callTool("roots")).content[0]).toMatchObject({ text: '[{"uri":"file:///tmp"}]' });
  });
});

describe("a client that answers a handler's request with an error", () => {
  it("gives the handler a ClientRequestError with the client's code, data and cause", async () => {
    const server = createServer({ name: "s", version: "1" });
    let caught: unknown;
    server.tool("ask", {}, async (_a, ctx) => {
      try {
        await ctx.sample({ messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 5 });
      } catch (error) {
        caught = error;
        throw error;
      }
      return "unreachable";
    });
    const { client } = await connectInMemory(server, {
      sampling: () => {
        throw new McpError(-32600, "the user refused", { why: "busy" });
      },
    });
    const result = await client.callTool("ask");
    expect(caught).toBeInstanceOf(ClientRequestError);
    expect(caught).toMatchObject({ code: -32600, data: { why: "busy" } });
    expect((caught as Error).cause).toBeInstanceOf(McpError);
    // Uncaught in a tool: an isError result naming what the client refused.
    expect(result.isError).toBe(true);
    expect(result.content[0]).toMatchObject({
      text: expect.stringContaining("sampling/createMessage: the user refused"),
    });
  });
});

describe("progress and cancellation inside handlers", () => {
  it("sends increasing progress with total and message, dropping values that do not increase", async () => {
    const server = createServer({ name: "s", version: "1" });
    server.tool("work", {}, (_a, ctx) => {
      ctx.progress(1, 3, "one");
      ctx.progress(1, 3, "again");
      ctx.progress(0.5, 3);
      ctx.progress(3, 3, "done");
      return "ok";
    });
    const { client } = await connectInMemory(server);
    const seen: unknown[] = [];
    await client.callTool("work", {}, { onprogress: (p) => seen.push(p) });
    expect(seen).toEqual([
      { progress: 1, total: 3, message: "one" },
      { progress: 3, total: 3, message: "done" },
    ]);
  });

  it("sends no progress when the request carried no progressToken", async () => {
    const server = createServer({ name: "s", version: "1" });
    server.tool("work", {}, (_a, ctx) => {
      ctx.progress(1, 1);
      return "ok";
    });
    const [a, b] = createLinkedPair();
    const sent = recordSentMethods(b);
    await server.connect(b);
    const client = new Client({ name: "c", version: "1" });
    await client.connect(a);
    await client.callTool("work");
    expect(sent).toEqual([]);
  });

  it("aborts the handler's signal when the client cancels, and the client gets no late answer", async () => {
    const server = createServer({ name: "s", version: "1" });
    let started = () => {};
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    let answered = (_reason: unknown) => {};
    const lateAnswer = new Promise<unknown>((resolve) => {
      answered = resolve;
    });
    server.tool("wait", {}, (_a, ctx) => {
      started();
      return new Promise((resolve) => {
        ctx.signal.addEventListener("abort", () => {
          resolve("too late");
          answered(ctx.signal.reason);
        });
      });
    });
    const [clientSide, serverSide] = createLinkedPair();
    const sent = recordSent(serverSide);
    await server.connect(serverSide);
    const client = new Client({ name: "c", version: "1" });
    await client.connect(clientSide);
    const controller = new AbortController();
    const call = client.callTool("wait", {}, { signal: controller.signal });
    await running;
    controller.abort("stop");
    await expect(call).rejects.toBe("stop");
    expect(String(((await lateAnswer) as Error).message)).toBe("stop");
    // The handler has answered; a ping sent after it is answered after anything it caused.
    await expect(client.ping()).resolves.toBeUndefined();
    expect(JSON.stringify(sent)).not.toContain("too late");
    expect(sent.filter((m) => "result" in m || "error" in m)).toHaveLength(2); // initialize and ping
  });
});
