import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { Client } from "../../src/client/index.js";
import { createStreamableHttpHandler, routeByPath } from "../../src/endpoints/http/index.js";
import { clientTelemetry, serverTelemetry } from "../../src/otel/index.js";
import { createServer } from "../../src/server/index.js";
import { connectInMemory } from "../../src/testing/index.js";
import { listen } from "../../src/transports/http/node.js";
import { stdioClientTransport } from "../../src/transports/stdio/index.js";
import { streamableHttpClientTransport } from "../../src/transports/streamable-http/client/index.js";
import { serveHttp, sessionHeaders } from "../http-server/helpers.js";
import { only, type SpanSummary, telemetry } from "./setup.js";

const ERAS = ["2025-11-25", "2026-07-28"] as const;
const TRACED_SERVER = fileURLToPath(new URL("./fixtures/traced-server.mjs", import.meta.url));

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

/**
 * One trace from the test's root span: the client's call, the relay server serving it, the
 * relay's own call to the leaf server, and the leaf serving that, each the parent of the next.
 */
function expectOneTrace(spans: SpanSummary[], rootSpanId: string, era: string) {
  const call = only(spans, "tools/call relay", "client");
  const relayed = only(spans, "tools/call relay", "server");
  const nestedCall = only(spans, "tools/call leaf", "client");
  const leaf = only(spans, "tools/call leaf", "server");
  expect(call.parentSpanId).toBe(rootSpanId);
  expect(relayed.parentSpanId).toBe(call.spanId);
  expect(nestedCall.parentSpanId).toBe(relayed.spanId);
  expect(leaf.parentSpanId).toBe(nestedCall.spanId);
  for (const span of [call, relayed, nestedCall, leaf]) {
    expect(span.traceId).toBe(call.traceId);
    expect(span.attributes).toMatchObject({ "mcp.method.name": "tools/call", "mcp.protocol.version": era });
  }
  return { call, relayed, nestedCall, leaf };
}

describe.each(ERAS)("one trace across processes and transports (%s)", (era) => {
  it("over stdio: client → relay server (child process) → nested client → leaf server", async () => {
    const otel = telemetry();
    const client = new Client({
      name: "traced-client",
      version: "1",
      protocolVersion: era,
      middleware: [clientTelemetry(otel.options)],
    });
    await client.connect(
      stdioClientTransport({
        command: process.execPath,
        args: [TRACED_SERVER],
        env: { ...process.env, NESTED_ERA: era } as Record<string, string>,
      }),
    );
    cleanup.push(() => client.close());
    let rootSpanId = "";
    await otel.tracer.startActiveSpan("test root", async (root) => {
      rootSpanId = root.spanContext().spanId;
      const result = await client.callTool("relay");
      expect(result.content).toEqual([{ type: "text", text: "relayed: leaf says hi" }]);
      root.end();
    });
    const theirs = JSON.parse(((await client.callTool("spans")).content[0] as { text: string }).text) as SpanSummary[];
    const { call, relayed } = expectOneTrace([...otel.spans(), ...theirs], rootSpanId, era);
    expect(call.attributes["network.transport"]).toBe("pipe");
    expect(relayed.attributes["network.transport"]).toBe("pipe");
    expect(relayed.attributes["jsonrpc.request.id"]).toEqual(expect.any(String));
  }, 30_000);

  it("over Streamable HTTP on 127.0.0.1: the same trace, and traceparent in the request's headers too", async () => {
    const otel = telemetry();
    const leaf = createServer({ name: "leaf", version: "1", middleware: [serverTelemetry(otel.options)] });
    leaf.tool("leaf", {}, () => "leaf says hi");
    const nested = await connectInMemory(leaf, {
      protocolVersion: era,
      middleware: [clientTelemetry(otel.options)],
    });
    cleanup.push(() => nested.close());

    const headerContexts: (string | null | undefined)[] = [];
    const relay = createServer({
      name: "relay",
      version: "1",
      middleware: [
        (ctx, next) => {
          if (ctx.method === "tools/call") headerContexts.push(ctx.headers?.get("traceparent"));
          return next();
        },
        serverTelemetry(otel.options),
      ],
    });
    relay.tool("relay", {}, async () => {
      const answer = await nested.client.callTool("leaf");
      return `relayed: ${(answer.content[0] as { text: string }).text}`;
    });
    const handler = createStreamableHttpHandler(relay);
    const routes = routeByPath((path) => (path === "/mcp" ? handler : undefined));
    const listening = await listen({ ...routes, close: () => handler.close() });
    cleanup.push(() => listening.close());

    const client = new Client({
      name: "traced-client",
      version: "1",
      protocolVersion: era,
      middleware: [clientTelemetry(otel.options)],
    });
    await client.connect(streamableHttpClientTransport(new URL("/mcp", listening.url)));
    cleanup.push(() => client.close());
    let rootSpanId = "";
    await otel.tracer.startActiveSpan("test root", async (root) => {
      rootSpanId = root.spanContext().spanId;
      const result = await client.callTool("relay");
      expect(result.content).toEqual([{ type: "text", text: "relayed: leaf says hi" }]);
      root.end();
    });
    const { call, relayed } = expectOneTrace(otel.spans(), rootSpanId, era);
    expect(headerContexts).toEqual([`00-${call.traceId}-${call.spanId}-01`]);
    expect(call.attributes).toMatchObject({ "network.transport": "tcp", "network.protocol.name": "http" });
    expect(relayed.attributes).toMatchObject({ "network.transport": "tcp", "network.protocol.name": "http" });
    // The headers carried the same context as _meta: nothing to link.
    expect(relayed.links).toBe(0);
    if (era === "2025-11-25") expect(relayed.attributes["mcp.session.id"]).toEqual(expect.any(String));
    else expect(relayed.attributes["mcp.session.id"]).toBeUndefined();
  }, 30_000);
});

describe("a transport context that differs from _meta's", () => {
  it("is a link of the server span, while _meta's context stays its parent", async () => {
    const otel = telemetry();
    const server = createServer({ name: "linked", version: "1", middleware: [serverTelemetry(otel.options)] });
    server.tool("t", {}, () => "ok");
    const http = await serveHttp(server);
    cleanup.push(() => http.close());
    const session = await http.open();
    const fromMeta = "00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01";
    const proxySpan = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
    const response = await http.post(
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "t", _meta: { traceparent: fromMeta } } },
      { ...sessionHeaders(session), traceparent: proxySpan },
    );
    await response.text();
    const span = only(otel.spans(), "tools/call t", "server");
    expect(span.traceId).toBe("0af7651916cd43dd8448eb211c80319c");
    expect(span.parentSpanId).toBe("00f067aa0ba902b7");
    expect(span.links).toBe(1);
  });
});
