import { type Attributes, context, SpanKind, trace } from "@opentelemetry/api";
import type { ClientMiddleware, ClientSession } from "../client/client-middleware.js";
import { ErrorCode } from "../jsonrpc/errors.js";
import { ATTR, networkAttributes, operationAttributes, spanAttributes, spanName } from "./attributes.js";
import { metaGetter, metaOf, recordSetter } from "./carrier.js";
import {
  durationHistogram,
  idleCheck,
  instruments,
  senderDuration,
  type TelemetryOptions,
  traced,
} from "./instruments.js";

/**
 * OpenTelemetry for a client, as the semantic conventions for MCP describe it: a CLIENT
 * span per call, named `{mcp.method.name} {target}`, child of the active span, its
 * context injected into `params._meta` (and, on Streamable HTTP, into the request's
 * `traceparent`/`tracestate` headers); a SERVER span for each request the server makes
 * of the client. Records mcp.client.operation.duration and mcp.client.session.duration
 * (seconds; a session is counted from connect() once a message of it passed).
 */
export function clientTelemetry(options: TelemetryOptions = {}): ClientMiddleware {
  const { tracer, meter, propagator } = instruments(options);
  const duration = senderDuration(meter);
  const sessionDuration = durationHistogram(
    meter,
    "mcp.client.session.duration",
    "The duration of an MCP session as observed on the client",
  );
  const sessions = new WeakSet<ClientSession>();
  const watchSession = (session: ClientSession, attrs: Attributes) => {
    sessions.add(session);
    void session.closed.then((reason) => {
      if (reason) attrs[ATTR.errorType] = reason.name && reason.name !== "Error" ? reason.name : "_OTHER";
      sessionDuration.record((performance.now() - session.openedAt) / 1000, attrs);
    });
  };

  const traceCall: ClientMiddleware = async (ctx, next) => {
    const start = performance.now();
    const metricAttrs: Attributes = operationAttributes(ctx);
    networkAttributes(ctx.transport, metricAttrs);
    if (ctx.session && !sessions.has(ctx.session)) {
      const attrs: Attributes = {};
      if (ctx.revision !== undefined) attrs[ATTR.protocolVersion] = ctx.revision;
      networkAttributes(ctx.transport, attrs);
      watchSession(ctx.session, attrs);
    }
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
      const given = ctx.options?.onRequestId;
      const options = {
        ...ctx.options,
        // The id the connection gives the request (the last one, for a call of several rounds).
        onRequestId: (id: string | number) => {
          span.setAttribute(ATTR.requestId, String(id));
          given?.(id);
        },
      };
      if (Object.keys(carrier).length > 0) {
        options.meta = { ...ctx.options?.meta, ...carrier };
        // On HTTP the same context goes in headers, for proxies and HTTP-level tracing.
        if (ctx.transport === "streamable-http")
          options.headers = { ...ctx.options?.headers, ...(carrier as Record<string, string>) };
      }
      ctx.options = options;
    }
    return traced(
      span,
      metricAttrs,
      () => context.with(spanContext, next),
      ctx.method,
      outbound ? undefined : ErrorCode.InternalError,
    ).finally(() => {
      // The sender's view only: what the server asks of us is not an operation of this client.
      if (outbound) duration.record((performance.now() - start) / 1000, metricAttrs);
    });
  };

  // Installed but idle (no SDK registered): the message goes straight on, as if it were not.
  const idle = idleCheck(options, meter);
  return (ctx, next) => (idle() ? next() : traceCall(ctx, next));
}
