import { describe, expect, it } from "vitest";
import { ErrorCode } from "../../src/jsonrpc/errors.js";
import { clientTelemetry, serverTelemetry } from "../../src/otel/index.js";
import { createServer } from "../../src/server/index.js";
import { connectInMemory } from "../../src/testing/index.js";
import { only, telemetry } from "./setup.js";

const ERAS = ["2025-11-25", "2026-07-28"] as const;

describe.each(ERAS)("OpenTelemetry, in memory (%s)", (era) => {
  async function setup() {
    const otel = telemetry();
    const server = createServer({ name: "traced", version: "1", middleware: [serverTelemetry(otel.options)] });
    const traceparents: (string | undefined)[] = [];
    server.tool("ok", {}, (_args, ctx) => {
      traceparents.push(ctx.trace.traceparent);
      return "fine";
    });
    server.tool("fails", {}, () => ({ content: [{ type: "text", text: "no" }], isError: true }));
    server.prompt("greet", {}, () => "hello");
    server.resource("file:///a.txt", { name: "a" }, () => "a");
    const conn = await connectInMemory(server, { protocolVersion: era, middleware: [clientTelemetry(otel.options)] });
    return { otel, traceparents, ...conn };
  }

  it("names spans {method} {target}, with the conventions' attributes on both sides", async () => {
    const { otel, traceparents, client, close } = await setup();
    await client.callTool("ok");
    await client.getPrompt("greet");
    await client.readResource("file:///a.txt");
    const spans = otel.spans();
    const clientCall = only(spans, "tools/call ok", "client");
    const serverCall = only(spans, "tools/call ok", "server");
    expect(serverCall.traceId).toBe(clientCall.traceId);
    expect(serverCall.parentSpanId).toBe(clientCall.spanId);
    // The client span's context travelled in params._meta (W3C traceparent).
    expect(traceparents).toEqual([`00-${clientCall.traceId}-${clientCall.spanId}-01`]);
    for (const s of [clientCall, serverCall]) {
      expect(s.attributes).toMatchObject({
        "mcp.method.name": "tools/call",
        "gen_ai.tool.name": "ok",
        "gen_ai.operation.name": "execute_tool",
        "mcp.protocol.version": era,
      });
      expect(s.status.code).toBe(0); // UNSET: no error
    }
    expect(serverCall.attributes["jsonrpc.request.id"]).toEqual(expect.any(String));
    // Both sides name the same JSON-RPC request.
    expect(clientCall.attributes["jsonrpc.request.id"]).toBe(serverCall.attributes["jsonrpc.request.id"]);
    expect(only(spans, "prompts/get greet", "server").attributes).toMatchObject({ "gen_ai.prompt.name": "greet" });
    // A resource URI is high-cardinality: an attribute, never the span name.
    expect(only(spans, "resources/read", "server").attributes).toMatchObject({ "mcp.resource.uri": "file:///a.txt" });
    await close();
  });

  it("marks a tool error tool_error and a JSON-RPC error with its code, status ERROR", async () => {
    const { otel, client, close } = await setup();
    await client.callTool("fails");
    await expect(client.request("prompts/get", { name: "missing" })).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
    });
    const spans = otel.spans();
    for (const kind of ["client", "server"] as const) {
      const failed = only(spans, "tools/call fails", kind);
      expect(failed.attributes["error.type"]).toBe("tool_error");
      expect(failed.status.code).toBe(2); // ERROR
      const missing = only(spans, "prompts/get missing", kind);
      expect(missing.attributes).toMatchObject({ "error.type": "-32602", "rpc.response.status_code": "-32602" });
      expect(missing.status).toMatchObject({ code: 2, message: expect.stringContaining("missing") });
    }
    await close();
  });

  it("makes a SERVER span on the client for what the server asks of it (elicitation)", async () => {
    const otel = telemetry();
    const server = createServer({ name: "asks", version: "1", middleware: [serverTelemetry(otel.options)] });
    server.tool("ask", {}, async (_args, ctx) => {
      const answer = await ctx.elicit({ message: "OK?", schema: { type: "object", properties: {} } });
      return answer.action;
    });
    const { client, close } = await connectInMemory(server, {
      protocolVersion: era,
      elicitation: () => ({ action: "accept", content: {} }),
      middleware: [clientTelemetry(otel.options)],
    });
    expect((await client.callTool("ask")).content).toEqual([{ type: "text", text: "accept" }]);
    // The server's side of the same request is a CLIENT span: the one below is the client's.
    const answered = otel.spans().filter((s) => s.name === "elicitation/create" && s.kind === "server");
    const asked = otel.spans().filter((s) => s.name === "elicitation/create" && s.kind === "client");
    expect(answered.length).toBeGreaterThan(0);
    for (const span of answered) {
      // Its parent is the server's span, whose context came in the request's _meta.
      expect(asked.map((a) => a.spanId)).toContain(span.parentSpanId);
      expect(span.attributes).toMatchObject({ "mcp.method.name": "elicitation/create", "mcp.protocol.version": era });
      // A modern server's input request has a key, not a JSON-RPC id.
      if (era === "2026-07-28") expect(span.attributes["jsonrpc.request.id"]).toBeUndefined();
    }
    await close();
  });

  it("makes a CLIENT span on the server for what it asks the client, child of the call, its context in _meta", async () => {
    const otel = telemetry();
    const server = createServer({ name: "asks", version: "1", middleware: [serverTelemetry(otel.options)] });
    server.tool("ask", {}, async (_args, ctx) => (await ctx.listRoots()).length.toString());
    const received: (string | undefined)[] = [];
    const { client, close } = await connectInMemory(server, {
      protocolVersion: era,
      listRoots: () => [],
      middleware: [
        (ctx, next) => {
          if (ctx.method === "roots/list") received.push((ctx.params?._meta as { traceparent?: string })?.traceparent);
          return next();
        },
      ],
    });
    expect((await client.callTool("ask")).content).toEqual([{ type: "text", text: "0" }]);
    const spans = otel.spans();
    // One call per round on 2026-07-28 (the first asks, the second has the answer).
    const calls = spans.filter((s) => s.name === "tools/call ask" && s.kind === "server");
    const asked = spans.filter((s) => s.name === "roots/list");
    expect(asked).toHaveLength(calls.length);
    for (const span of asked) {
      expect(span.kind).toBe("client");
      const parent = calls.find((c) => c.spanId === span.parentSpanId);
      expect(parent?.traceId).toBe(span.traceId);
    }
    // The client received an outbound span's context (on 2026-07-28, the round's that asked).
    expect(received).toHaveLength(1);
    expect(asked.map((s) => `00-${s.traceId}-${s.spanId}-01`)).toContain(received[0]);
    const points = await otel.points("mcp.client.operation.duration");
    expect(points.find((p) => p.attributes["mcp.method.name"] === "roots/list")?.count).toBe(asked.length);
    await close();
  });

  it("records operation durations in seconds on both sides, with error.type when they failed", async () => {
    const { otel, client, close } = await setup();
    await client.callTool("ok");
    await client.callTool("ok");
    await client.callTool("fails");
    for (const side of ["client", "server"]) {
      const points = await otel.points(`mcp.${side}.operation.duration`);
      const ok = points.find((p) => p.attributes["gen_ai.tool.name"] === "ok");
      expect(ok).toMatchObject({ count: 2, unit: "s", attributes: { "mcp.method.name": "tools/call" } });
      expect(ok?.attributes["error.type"]).toBeUndefined();
      // High-cardinality attributes stay off metrics.
      expect(ok?.attributes["jsonrpc.request.id"]).toBeUndefined();
      const failed = points.find((p) => p.attributes["gen_ai.tool.name"] === "fails");
      expect(failed).toMatchObject({ count: 1, attributes: { "error.type": "tool_error" } });
    }
    await close();
  });
});

describe("OpenTelemetry session duration", () => {
  it.each(ERAS)("records mcp.client.session.duration when the client closes (%s)", async (era) => {
    const otel = telemetry();
    const server = createServer({ name: "traced", version: "1" });
    server.tool("ok", {}, () => "fine");
    const { client, close } = await connectInMemory(server, {
      protocolVersion: era,
      middleware: [clientTelemetry(otel.options)],
    });
    await client.callTool("ok");
    expect(await otel.points("mcp.client.session.duration")).toEqual([]);
    await close();
    await expect
      .poll(async () => otel.points("mcp.client.session.duration"))
      .toEqual([{ count: 1, unit: "s", attributes: { "mcp.protocol.version": era } }]);
  });

  it("records mcp.server.session.duration when a legacy session closes", async () => {
    const otel = telemetry();
    const server = createServer({ name: "traced", version: "1", middleware: [serverTelemetry(otel.options)] });
    server.tool("ok", {}, () => "fine");
    const { client, close } = await connectInMemory(server, { protocolVersion: "2025-11-25" });
    await client.callTool("ok");
    expect(await otel.points("mcp.server.session.duration")).toEqual([]);
    await close();
    await expect
      .poll(async () => otel.points("mcp.server.session.duration"))
      .toEqual([{ count: 1, unit: "s", attributes: { "mcp.protocol.version": "2025-11-25" } }]);
  });
});
