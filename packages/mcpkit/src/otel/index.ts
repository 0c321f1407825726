/**
 * OpenTelemetry for mcpkit servers and clients (the semantic conventions for MCP). This
 * entry point imports `@opentelemetry/api`, an optional peer dependency: the rest of
 * mcpkit never does.
 */
export { ATTR, DURATION_BUCKETS } from "./attributes.js";
export { clientTelemetry } from "./client-telemetry.js";
export type { TelemetryOptions } from "./instruments.js";
export { serverTelemetry } from "./server-telemetry.js";
