import type { Attributes } from "@opentelemetry/api";
import type { MiddlewareContext } from "../connection/middleware-chain.js";
import { McpError } from "../jsonrpc/errors.js";
import type { JsonObject } from "../jsonrpc/types.js";
import type { TransportBinding } from "../transports/transport.js";

/** Attribute names of the OpenTelemetry semantic conventions for MCP (gen-ai/mcp.md). */
export const ATTR = {
  method: "mcp.method.name",
  protocolVersion: "mcp.protocol.version",
  sessionId: "mcp.session.id",
  resourceUri: "mcp.resource.uri",
  requestId: "jsonrpc.request.id",
  toolName: "gen_ai.tool.name",
  promptName: "gen_ai.prompt.name",
  operationName: "gen_ai.operation.name",
  errorType: "error.type",
  statusCode: "rpc.response.status_code",
  networkTransport: "network.transport",
  networkProtocol: "network.protocol.name",
} as const;

/** The conventions' advice for the operation and session duration histograms, seconds. */
export const DURATION_BUCKETS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];

const URI_METHODS = new Set([
  "resources/read",
  "resources/subscribe",
  "resources/unsubscribe",
  "notifications/resources/updated",
]);

/** The span name's low-cardinality target: the tool or prompt named, if any. */
export function targetOf(ctx: MiddlewareContext): string | undefined {
  const name = ctx.params?.name;
  if (typeof name !== "string") return undefined;
  return ctx.method === "tools/call" || ctx.method === "prompts/get" ? name : undefined;
}

/** `{mcp.method.name} {target}`, or the method alone. */
export function spanName(ctx: MiddlewareContext): string {
  const target = targetOf(ctx);
  return target === undefined ? ctx.method : `${ctx.method} ${target}`;
}

/** network.transport and network.protocol.name for a binding: pipe for stdio, tcp (http) for HTTP. */
export function networkAttributes(binding: TransportBinding | undefined, attrs: Attributes): void {
  if (binding === "stdio") attrs[ATTR.networkTransport] = "pipe";
  else if (binding === "streamable-http" || binding === "sse") {
    attrs[ATTR.networkTransport] = "tcp";
    attrs[ATTR.networkProtocol] = "http";
  }
}

/** The attributes both the span and the duration metric carry. */
export function operationAttributes(ctx: MiddlewareContext): Attributes {
  const attrs: Attributes = { [ATTR.method]: ctx.method };
  if (ctx.revision !== undefined) attrs[ATTR.protocolVersion] = ctx.revision;
  const name = ctx.params?.name;
  if (typeof name === "string") {
    if (ctx.method === "tools/call") {
      attrs[ATTR.toolName] = name;
      attrs[ATTR.operationName] = "execute_tool";
    } else if (ctx.method === "prompts/get") attrs[ATTR.promptName] = name;
  }
  return attrs;
}

/** Span-only attributes: high cardinality, kept off the metric. */
export function spanAttributes(ctx: MiddlewareContext, attrs: Attributes): Attributes {
  const out: Attributes = { ...attrs };
  if (ctx.sessionId !== undefined) out[ATTR.sessionId] = ctx.sessionId;
  if (ctx.id !== undefined && ctx.id !== null) out[ATTR.requestId] = String(ctx.id);
  const uri = ctx.params?.uri;
  if (typeof uri === "string" && URI_METHODS.has(ctx.method)) out[ATTR.resourceUri] = uri;
  return out;
}

/** How an operation failed, as error.type says it: the JSON-RPC code, or tool_error. */
export interface Failure {
  type: string;
  code?: string;
  message?: string;
}

export function failureOfError(error: unknown, answeredAs?: number): Failure {
  if (error instanceof McpError || (error instanceof Error && typeof (error as McpError).code === "number")) {
    const code = String((error as McpError).code);
    return { type: code, code, message: error.message };
  }
  // On a server, anything else is answered -32603 without its message (nothing leaks).
  if (answeredAs !== undefined) return { type: String(answeredAs), code: String(answeredAs) };
  const name = error instanceof Error && error.name ? error.name : "_OTHER";
  return { type: name === "Error" ? "_OTHER" : name, message: undefined };
}

/** A CallToolResult with isError is a failure of the tool, not of the call (error.type tool_error). */
export function failureOfResult(method: string, result: JsonObject): Failure | undefined {
  return method === "tools/call" && result.isError === true ? { type: "tool_error" } : undefined;
}
