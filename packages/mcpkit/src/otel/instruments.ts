import {
  type Attributes,
  createNoopMeter,
  type Histogram,
  type Meter,
  type MeterProvider,
  metrics,
  ProxyTracerProvider,
  propagation,
  type Span,
  SpanStatusCode,
  type TextMapPropagator,
  type Tracer,
  type TracerProvider,
  trace,
} from "@opentelemetry/api";
import type { JsonObject } from "../jsonrpc/types.js";
import { ATTR, DURATION_BUCKETS, type Failure, failureOfError, failureOfResult } from "./attributes.js";

export interface TelemetryOptions {
  /** Default: the global one (`trace.setGlobalTracerProvider`, or what the OTel SDK registered). */
  tracerProvider?: TracerProvider;
  /** Default: the global one. */
  meterProvider?: MeterProvider;
  /** Default: the global propagator (W3C trace context and baggage once the SDK is set up). */
  propagator?: TextMapPropagator;
}

const SCOPE = "mcpkit";

/** What either side's telemetry records with: the tracer, the meter and the propagator the options name. */
export function instruments(options: TelemetryOptions): {
  tracer: Tracer;
  meter: Meter;
  propagator: TextMapPropagator;
} {
  return {
    tracer: (options.tracerProvider ?? trace.getTracerProvider()).getTracer(SCOPE),
    meter: (options.meterProvider ?? metrics.getMeterProvider()).getMeter(SCOPE),
    propagator: options.propagator ?? propagation,
  };
}

/** The API's own no-op tracer provider: what the global proxy delegates to until an SDK registers one. */
const NO_TRACING = new ProxyTracerProvider().getDelegate();

/**
 * Whether telemetry made with `options` records and carries nothing at this moment: no
 * tracer provider registered (the global proxy still delegates to the API's no-op), the
 * no-op meter (taken when the telemetry was made), and no propagator, so no trace context
 * to pass through either. A middleware that finds it so does nothing. Asked per message,
 * since an SDK is often started after the server is defined; false for good when a
 * provider or propagator was given.
 */
export function idleCheck(options: TelemetryOptions, meter: Meter): () => boolean {
  if (options.tracerProvider || options.propagator || meter !== createNoopMeter()) return () => false;
  const provider = trace.getTracerProvider();
  if (!(provider instanceof ProxyTracerProvider)) return () => false;
  return () => provider.getDelegate() === NO_TRACING && propagation.fields().length === 0;
}

/** A duration histogram of the semantic conventions for MCP (seconds, their buckets). */
export const durationHistogram = (meter: Meter, name: string, description: string): Histogram =>
  meter.createHistogram(name, { unit: "s", description, advice: { explicitBucketBoundaries: DURATION_BUCKETS } });

/** mcp.client.operation.duration: what a client records for its calls, and a server for its requests to the client. */
export const senderDuration = (meter: Meter): Histogram =>
  durationHistogram(
    meter,
    "mcp.client.operation.duration",
    "The duration of an MCP request as observed by its sender, until the response is received",
  );

/**
 * Runs `work` in `span`, then records how it failed (if it did) on the span and the
 * metric's attributes, and ends it. `answeredAs`: the code a failure that is no McpError
 * is answered with (the receiver's view), undefined on the sender's side.
 */
export async function traced(
  span: Span,
  metricAttrs: Attributes,
  work: () => Promise<JsonObject>,
  method: string,
  answeredAs: number | undefined,
): Promise<JsonObject> {
  let failure: Failure | undefined;
  try {
    const result = await work();
    failure = failureOfResult(method, result);
    return result;
  } catch (error) {
    failure = failureOfError(error, answeredAs);
    throw error;
  } finally {
    if (failure) {
      span.setAttribute(ATTR.errorType, failure.type);
      metricAttrs[ATTR.errorType] = failure.type;
      if (failure.code !== undefined) {
        span.setAttribute(ATTR.statusCode, failure.code);
        metricAttrs[ATTR.statusCode] = failure.code;
      }
      span.setStatus({ code: SpanStatusCode.ERROR, message: failure.message });
    }
    span.end();
  }
}
