import type { LogEmitter } from "@mcpkit/servers/gateway";

/**
 * The OpenTelemetry logger audit records go to, when @opentelemetry/api-logs is installed
 * (an optional peer): the global logger provider's, which an SDK set up in the process
 * (NODE_OPTIONS="--import ./otel.mjs") exports; without an SDK it drops them, at no cost.
 */
export async function auditLogger(): Promise<{ auditLogger?: LogEmitter }> {
  try {
    const { logs } = await import("@opentelemetry/api-logs");
    return { auditLogger: logs.getLogger("mcpkit-gateway") };
  } catch {
    return {};
  }
}
