import { trace } from "@opentelemetry/api";
import { InMemorySpanExporter } from "@opentelemetry/sdk-trace-base";
import { Client } from "mcpkit/client";
import { clientTelemetry, serverTelemetry } from "mcpkit/otel";
import { createServer } from "mcpkit/server";
import { createLinkedPair } from "mcpkit/testing";
import { describe, expect, it } from "vitest";
import { createForecastServer, setUpTracing } from "../../examples/observability/tracing.mjs";

// examples/observability/tracing.mjs, quoted by docs/observability.md, run as written:
// it registers the global tracer provider, so it has this file (this process) to itself.

const exporter = new InMemorySpanExporter();
setUpTracing(exporter);

describe("examples/observability/tracing.mjs", () => {
  it("puts the caller, the forecast server, its upstream call and the upstream server in one trace", async () => {
    const weather = createServer({ name: "weather", version: "1", middleware: [serverTelemetry()] });
    weather.tool("get_weather", {}, () => "Sunny");
    const [upstreamClientSide, upstreamServerSide] = createLinkedPair();
    await weather.connect(upstreamServerSide);
    const forecast = await createForecastServer(upstreamClientSide);

    const [clientSide, serverSide] = createLinkedPair();
    await forecast.server.connect(serverSide);
    const caller = new Client({ name: "caller", version: "1", middleware: [clientTelemetry()] });
    await caller.connect(clientSide);
    const result = await trace.getTracer("test").startActiveSpan("root", async (root) => {
      const r = await caller.callTool("forecast");
      root.end();
      return r;
    });
    expect(result.content).toEqual([{ type: "text", text: "Sunny" }]);

    const spans = exporter.getFinishedSpans();
    const find = (name: string, kind: number) => spans.find((s) => s.name === name && s.kind === kind);
    const root = spans.find((s) => s.name === "root");
    const chain = [
      root,
      find("tools/call forecast", 2),
      find("tools/call forecast", 1),
      find("tools/call get_weather", 2),
      find("tools/call get_weather", 1),
    ];
    for (const [i, span] of chain.entries()) {
      expect(span, `span ${i} of the chain`).toBeDefined();
      if (i > 0) expect(span?.parentSpanContext?.spanId).toBe(chain[i - 1]?.spanContext().spanId);
      expect(span?.spanContext().traceId).toBe(root?.spanContext().traceId);
    }
    await caller.close();
    await forecast.close();
  });
});
