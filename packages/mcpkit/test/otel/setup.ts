import { context, SpanKind } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { AggregationTemporality, MeterProvider, MetricReader } from "@opentelemetry/sdk-metrics";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";

/** The ambient context must follow async calls for a handler's own calls to join the trace. */
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());

class CollectingReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE });
  }
  protected async onForceFlush() {}
  protected async onShutdown() {}
}

/** An OTel SDK that keeps spans and metrics in memory, passed explicitly (no globals but the context manager). */
export function telemetry() {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const reader = new CollectingReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  const propagator = new W3CTraceContextPropagator();
  return {
    options: { tracerProvider, meterProvider, propagator },
    tracer: tracerProvider.getTracer("test"),
    spans: () => exporter.getFinishedSpans().map(summary),
    /** Every data point of the histogram `name`: its attributes and count. */
    async points(name: string) {
      const { resourceMetrics } = await reader.collect();
      const metric = resourceMetrics.scopeMetrics.flatMap((s) => s.metrics).find((m) => m.descriptor.name === name);
      return (metric?.dataPoints ?? []).map((p) => ({
        attributes: p.attributes,
        count: (p.value as { count: number }).count,
        unit: metric?.descriptor.unit,
      }));
    },
  };
}

export interface SpanSummary {
  name: string;
  kind: "client" | "server" | "internal";
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  attributes: Record<string, unknown>;
  status: { code: number; message?: string };
  links: number;
}

const KINDS: Record<number, SpanSummary["kind"]> = {
  [SpanKind.CLIENT]: "client",
  [SpanKind.SERVER]: "server",
  [SpanKind.INTERNAL]: "internal",
};

export function summary(span: ReadableSpan): SpanSummary {
  return {
    name: span.name,
    kind: KINDS[span.kind] ?? "internal",
    traceId: span.spanContext().traceId,
    spanId: span.spanContext().spanId,
    parentSpanId: span.parentSpanContext?.spanId,
    attributes: { ...span.attributes },
    status: { ...span.status },
    links: span.links.length,
  };
}

/** Finds the one span named `name` of `kind`. */
export function only(spans: SpanSummary[], name: string, kind: SpanSummary["kind"]): SpanSummary {
  const found = spans.filter((s) => s.name === name && s.kind === kind);
  if (found.length !== 1)
    throw new Error(
      `expected one ${kind} span "${name}", found ${found.length} in ${spans.map((s) => `${s.kind}:${s.name}`).join(", ")}`,
    );
  return found[0] as SpanSummary;
}
