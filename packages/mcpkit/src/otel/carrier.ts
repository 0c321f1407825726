import type { TextMapGetter, TextMapSetter } from "@opentelemetry/api";
import type { JsonObject } from "../jsonrpc/types.js";
import type { HeaderReader } from "../transports/transport.js";

/** Reads trace context from a request's `params._meta` (basic/index §OpenTelemetry trace context). */
export const metaGetter: TextMapGetter<JsonObject | undefined> = {
  keys: (meta) => (meta ? Object.keys(meta) : []),
  get: (meta, key) => {
    const value = meta?.[key];
    return typeof value === "string" ? value : undefined;
  },
};

/** Writes trace context into a plain object (the `_meta` keys, or HTTP headers). */
export const recordSetter: TextMapSetter<Record<string, unknown>> = {
  set: (carrier, key, value) => {
    carrier[key] = value;
  },
};

/** Reads trace context from HTTP request headers. */
export const headerGetter: TextMapGetter<HeaderReader> = {
  keys: () => ["traceparent", "tracestate", "baggage"],
  get: (headers, key) => headers.get(key) ?? undefined,
};

export const metaOf = (params: JsonObject | undefined): JsonObject | undefined => {
  const meta = params?._meta;
  return typeof meta === "object" && meta !== null && !Array.isArray(meta) ? (meta as JsonObject) : undefined;
};
