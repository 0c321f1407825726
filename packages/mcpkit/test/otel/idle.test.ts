import { propagation, trace } from "@opentelemetry/api";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { afterEach, describe, expect, it } from "vitest";
import { clientTelemetry, serverTelemetry } from "../../src/otel/index.js";
import { createServer } from "../../src/server/index.js";
import { connectInMemory } from "../../src/testing/index.js";

// Telemetry installed with no OpenTelemetry SDK registered does nothing (the middleware
// passes each message straight on), and starts recording as soon as an SDK registers
// globally, however long after the middleware was made: the check is per message.

afterEach(() => {
  trace.disable();
  propagation.disable();
});

describe("OpenTelemetry installed but idle", () => {
  it("passes messages straight on while no SDK is registered, and records once one registers", async () => {
    const server = createServer({ name: "idle", version: "1", middleware: [serverTelemetry()] });
    const seen: (string | undefined)[] = [];
    server.tool("ok", {}, (_args, ctx) => {
      seen.push(ctx.trace.traceparent);
      return "fine";
    });
    const { client, close } = await connectInMemory(server, { middleware: [clientTelemetry()] });
    expect(await client.callTool("ok")).toMatchObject({ content: [{ text: "fine" }] });
    // Nothing was propagated: no trace context reached the handler.
    expect(seen).toEqual([undefined]);

    const exporter = new InMemorySpanExporter();
    trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    await client.callTool("ok");
    const spans = exporter.getFinishedSpans().filter((s) => s.name === "tools/call ok");
    expect(spans).toHaveLength(2); // the client's and the server's
    const [first, second] = spans;
    expect(first?.spanContext().traceId).toBe(second?.spanContext().traceId);
    expect(seen[1]).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    await close();
  });
});
