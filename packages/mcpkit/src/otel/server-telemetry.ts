import { type Attributes, type Context, context, type Link, SpanKind, trace } from "@opentelemetry/api";
import { ErrorCode } from "../jsonrpc/errors.js";
import type { ServerMiddleware } from "../server/middleware/message-context.js";
import type { ServerSession } from "../server/server-session.js";
import { ATTR, networkAttributes, operationAttributes, spanAttributes, spanName } from "./attributes.js";
import { headerGetter, metaGetter, metaOf, recordSetter } from "./carrier.js";
import {
  durationHistogram,
  idleCheck,
  instruments,
  senderDuration,
  type TelemetryOptions,
  traced,
} from "./instruments.js";

/**
 * OpenTelemetry for a server, as the semantic conventions for MCP describe it: a SERVER
 * span per request and notification, named `{mcp.method.name} {target}`, whose parent is
 * the trace context in `params._meta` (else the HTTP request's `traceparent` header,
 * else the ambient context); the handler runs inside it, so calls it makes join the trace.
 * A request the server sends the client (sampling, elicitation, roots) is a CLIENT span,
 * child of the request being served, its context injected into the request's `_meta`.
 * Records mcp.server.operation.duration and mcp.server.session.duration, and for those
 * outbound requests mcp.client.operation.duration (their sender's view), in seconds.
 */
export function serverTelemetry(options: TelemetryOptions = {}): ServerMiddleware {
  const { tracer, meter, propagator } = instruments(options);
  const idle = idleCheck(options, meter);
  const duration = durationHistogram(
    meter,
    "mcp.server.operation.duration",
    "The duration of an MCP request or notification as observed by its receiver",
  );
  const sessionDuration = durationHistogram(
    meter,
    "mcp.server.session.duration",
    "The duration of an MCP session as observed on the server",
  );
  const outboundDuration = senderDuration(meter);
  const sessions = new WeakSet<ServerSession>();

  const watchSession = (session: ServerSession, transportAttrs: Attributes) => {
    sessions.add(session);
    const start = performance.now();
    void session.closed.then(() => {
      const attrs: Attributes = { ...transportAttrs };
      if (session.revision !== undefined) attrs[ATTR.protocolVersion] = session.revision;
      sessionDuration.record((performance.now() - start) / 1000, attrs);
    });
  };

  const outbound: ServerMiddleware = async (ctx, next) => {
    const start = performance.now();
    const metricAttrs = operationAttributes(ctx);
    networkAttributes(ctx.transport, metricAttrs);
    const parent = context.active();
    const span = tracer.startSpan(
      spanName(ctx),
      { kind: SpanKind.CLIENT, attributes: spanAttributes(ctx, metricAttrs) },
      parent,
    );
    const spanContext = trace.setSpan(parent, span);
    const carrier: Record<string, unknown> = {};
    propagator.inject(spanContext, carrier, recordSetter);
    if (Object.keys(carrier).length > 0) ctx.params = { ...ctx.params, _meta: { ...metaOf(ctx.params), ...carrier } };
    return traced(span, metricAttrs, () => context.with(spanContext, next), ctx.method, undefined).finally(() =>
      outboundDuration.record((performance.now() - start) / 1000, metricAttrs),
    );
  };

  const inbound: ServerMiddleware = async (ctx, next) => {
    const start = performance.now();
    const network: Attributes = {};
    networkAttributes(ctx.headers ? "streamable-http" : ctx.transport, network);
    const metricAttrs = { ...operationAttributes(ctx), ...network };
    if (ctx.session && !sessions.has(ctx.session)) watchSession(ctx.session, network);

    // semconv: the context in _meta is the parent; the transport's (HTTP headers) is linked.
    const active = context.active();
    const meta = metaOf(ctx.params);
    const fromMeta = meta?.traceparent !== undefined ? propagator.extract(active, meta, metaGetter) : undefined;
    const fromHeaders = ctx.headers?.get("traceparent")
      ? propagator.extract(active, ctx.headers, headerGetter)
      : undefined;
    const parent: Context = fromMeta ?? fromHeaders ?? active;
    // The transport's context is linked when it is another one (an HTTP proxy's span, say).
    const links: Link[] = [];
    const transportSpan = fromMeta && fromHeaders ? trace.getSpanContext(fromHeaders) : undefined;
    if (transportSpan && transportSpan.spanId !== trace.getSpanContext(fromMeta as Context)?.spanId)
      links.push({ context: transportSpan });
    const span = tracer.startSpan(
      spanName(ctx),
      { kind: SpanKind.SERVER, attributes: spanAttributes(ctx, metricAttrs), links },
      parent,
    );
    return traced(
      span,
      metricAttrs,
      () => context.with(trace.setSpan(parent, span), next),
      ctx.method,
      ErrorCode.InternalError,
    ).finally(() => duration.record((performance.now() - start) / 1000, metricAttrs));
  };

  // Installed but idle (no SDK registered): the message goes straight on, as if it were not.
  return (ctx, next) => (idle() ? next() : ctx.direction === "outbound" ? outbound(ctx, next) : inbound(ctx, next));
}
