/** Reserved `_meta` keys (basic/index §_meta, 2026-07-28). */
export const META = {
  protocolVersion: "io.modelcontextprotocol/protocolVersion",
  clientInfo: "io.modelcontextprotocol/clientInfo",
  clientCapabilities: "io.modelcontextprotocol/clientCapabilities",
  logLevel: "io.modelcontextprotocol/logLevel",
  serverInfo: "io.modelcontextprotocol/serverInfo",
  subscriptionId: "io.modelcontextprotocol/subscriptionId",
} as const;

/** OpenTelemetry trace context keys carried in `_meta` as they are (basic/index §OpenTelemetry). */
export const TRACE_KEYS = ["traceparent", "tracestate", "baggage"] as const;
