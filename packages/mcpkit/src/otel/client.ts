import { type Attributes, context, metrics, propagation, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import type { ClientMiddleware } from "../client/middleware.js";
import type { JsonObject } from "../jsonrpc/types.js";
import {
  ATTR,
  DURATION_BUCKETS,
  type Failure,
  failureOfError,
  failureOfResult,
  networkAttributes,
  operationAttributes,
  spanAttributes,
  spanName,
} from "./attributes.js";
import { metaGetter, metaOf, recordSetter } from "./carrier.js";
import type { TelemetryOptions } from "./server.js";

const SCOPE = "mcpkit";

/**
 * OpenTelemetry for a client, as the semantic conventions for MCP describe it: a CLIENT
 * span per call, named `{mcp.method.name} {target}`, child of the active span, its
 * context injected into `params._meta` (and, on Streamable HTTP, into the request's
 * `traceparent`/`tracestate` headers); a SERVER span for each request the server makes
 * of the client. Records mcp.client.operation.duration (seconds).
 */
export function clientTelemetry(options: TelemetryOptions = {}): ClientMiddleware {
  const tracer = (options.tracerProvider ?? trace.getTracerProvider()).getTracer(SCOPE);
  const meter = (options.meterProvider ?? metrics.getMeterProvider()).getMeter(SCOPE);
  const propagator = options.propagator ?? propagation;
  const duration = meter.createHistogram("mcp.client.operation.duration", {
    unit: "s",
    description: "The duration of an MCP request as observed by its sender, until the response is received",
    advice: { explicitBucketBoundaries: DURATION_BUCKETS },
  });

  return async (ctx, next) => {
    const start = performance.now();
    const metricAttrs: Attributes = operationAttributes(ctx);
    networkAttributes(ctx.transport, metricAttrs);
    const outbound = ctx.direction === "outbound";
    const active = context.active();
    // What the server asks of us is served here: its context, if it sent one, is the parent.
    const meta = metaOf(ctx.params);
    const parent = !outbound && meta?.traceparent !== undefined ? propagator.extract(active, meta, metaGetter) : active;
    const span = tracer.startSpan(
      spanName(ctx),
      { kind: outbound ? SpanKind.CLIENT : SpanKind.SERVER, attributes: spanAttributes(ctx, metricAttrs) },
      parent,
    );
    const spanContext = trace.setSpan(parent, span);
    if (outbound) {
      const carrier: Record<string, unknown> = {};
      propagator.inject(spanContext, carrier, recordSetter);
      if (Object.keys(carrier).length > 0) {
        const options = { ...ctx.options, meta: { ...ctx.options?.meta, ...carrier } };
        // On HTTP the same context goes in headers, for proxies and HTTP-level tracing.
        if (ctx.transport === "streamable-http")
          options.headers = { ...ctx.options?.headers, ...(carrier as Record<string, string>) };
        ctx.options = options;
      }
    }
    let failure: Failure | undefined;
    try {
      const result: JsonObject = await context.with(spanContext, next);
      failure = failureOfResult(ctx.method, result);
      return result;
    } catch (error) {
      failure = failureOfError(error, outbound ? undefined : -32603);
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
      if (ctx.kind === "request") duration.record((performance.now() - start) / 1000, metricAttrs);
    }
  };
}
