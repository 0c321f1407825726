// @ts-check
// Tracing an MCP server and the client calls its tools make. docs/observability.md quotes
// this file.
import { context, propagation, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { BasicTracerProvider, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { Client } from "mcpkit/client";
import { clientTelemetry, serverTelemetry } from "mcpkit/otel";
import { createServer } from "mcpkit/server";

/**
 * Once per process, what the OTel Node SDK (`@opentelemetry/sdk-node`) does for you: a
 * context manager that follows async calls, the W3C propagator, and a tracer provider.
 * @param {import("@opentelemetry/sdk-trace-base").SpanExporter} exporter
 */
export function setUpTracing(exporter) {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
}

/**
 * A server whose tool asks another MCP server (`upstream`, any transport): one trace
 * covers the caller's call, this server's handling, and its own call upstream.
 * @param {import("mcpkit").Transport} upstream
 */
export async function createForecastServer(upstream) {
  const client = new Client({ name: "forecast", version: "1.0.0", middleware: [clientTelemetry()] });
  await client.connect(upstream);
  const server = createServer({ name: "forecast", version: "1.0.0", middleware: [serverTelemetry()] });
  server.tool("forecast", {}, async () => {
    const today = await client.callTool("get_weather", { city: "Paris" });
    return { content: today.content };
  });
  return { server, close: () => client.close() };
}
