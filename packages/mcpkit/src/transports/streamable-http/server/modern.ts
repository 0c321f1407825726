import type { ResourceServer } from "../../../auth/server/resource-server.js";
import { ErrorCode, McpError } from "../../../jsonrpc/errors.js";
import { messageProblem } from "../../../jsonrpc/message.js";
import type { JsonObject, JsonRpcMessage, RequestId } from "../../../jsonrpc/types.js";
import { decodeHeaderValue, headerParamValue } from "../../../protocol/mcp-headers.js";
import { META } from "../../../protocol/meta.js";
import { revisionRules } from "../../../protocol/revisions.js";
import { isStatefulRevision } from "../../../protocol/versions.js";
import type { McpServer } from "../../../server/server.js";
import { checkServedVersion, type Envelope, readEnvelopeShape } from "../../../server/stateless.js";
import type { HeaderReader, HttpReply, HttpRequest } from "../../http/exchange.js";
import type { MessageInfo } from "../../transport.js";
import { httpAnswer } from "./answer-status.js";
import { jsonRpcErrorReply } from "./responses.js";
import { HttpSessionTransport, type SessionTransportOptions } from "./session-transport.js";

/**
 * The 2026-07-28 path of the MCP endpoint (transports/streamable-http): no session, the
 * request's revision in `_meta` and in headers, each POST answered on its own.
 */

/** A POST in the modern shape: no session, and a non-legacy version header or a `_meta` version. */
export function isModernPost(request: { headers: HeaderReader }, body: unknown): boolean {
  if (request.headers.get("mcp-session-id") !== null) return false;
  const version = request.headers.get("mcp-protocol-version");
  if (version !== null && !isStatefulRevision(version.trim())) return true;
  const params = (body as { params?: { _meta?: unknown } } | null)?.params;
  const meta = params?._meta;
  return typeof meta === "object" && meta !== null && META.protocolVersion in meta;
}

const NAMED = new Set(["tools/call", "resources/read", "prompts/get"]);

const mismatch = (message: string) => new McpError(ErrorCode.HeaderMismatch, `Header mismatch: ${message}`);

/** transports §Server Validation: the headers must agree with the body. */
function checkHeaders(
  request: HttpRequest,
  message: { method: string; params?: JsonObject },
  server: McpServer,
): McpError | undefined {
  const headers = request.headers;
  const version = headers.get("mcp-protocol-version")?.trim();
  const bodyVersion = (message.params?._meta as Record<string, unknown> | undefined)?.[META.protocolVersion];
  if (version === undefined) return mismatch("the MCP-Protocol-Version header is required");
  if (version !== bodyVersion) {
    return mismatch(`MCP-Protocol-Version header ${version} does not match _meta version ${String(bodyVersion)}`);
  }
  const method = headers.get("mcp-method")?.trim();
  if (method === undefined) return mismatch("the Mcp-Method header is required");
  if (method !== message.method)
    return mismatch(`Mcp-Method header '${method}' does not match body method '${message.method}'`);
  if (NAMED.has(message.method)) {
    const raw = headers.get("mcp-name");
    if (raw === null) return mismatch("the Mcp-Name header is required for this method");
    const name = decodeHeaderValue(raw);
    if (name === undefined) return mismatch("the Mcp-Name header is not valid Base64");
    const bodyName = message.method === "resources/read" ? message.params?.uri : message.params?.name;
    if (name !== bodyName) return mismatch(`Mcp-Name header '${name}' does not match body value '${String(bodyName)}'`);
  }
  if (message.method === "tools/call") {
    const tool = server.tools.get(String(message.params?.name));
    for (const param of tool?.headerParams ?? []) {
      const header = `mcp-param-${param.header.toLowerCase()}`;
      const raw = headers.get(header);
      const expected = headerParamValue(message.params?.arguments, param);
      if (raw === null) {
        if (expected !== undefined)
          return mismatch(`the Mcp-Param-${param.header} header is required: the argument is in the body`);
        continue;
      }
      const value = decodeHeaderValue(raw);
      if (value === undefined) return mismatch(`Mcp-Param-${param.header} is not valid Base64`);
      const same =
        param.type === "integer" ? expected !== undefined && Number(value) === Number(expected) : value === expected;
      if (!same)
        return mismatch(`Mcp-Param-${param.header} header '${value}' does not match body value '${String(expected)}'`);
    }
  }
  return undefined;
}

/** The options of the modern path's per-request transports, made once per handler. */
export function modernTransportOptions(
  options: Pick<SessionTransportOptions, "retryMs" | "keepAliveMs">,
  auth: ResourceServer | undefined,
): SessionTransportOptions {
  return {
    eventStore: undefined,
    retryMs: options.retryMs,
    keepAliveMs: options.keepAliveMs,
    // streamable-http §Cancellation: closing the response stream cancels the request.
    cancelOnDisconnect: true,
    answer: (m) => httpAnswer(m, true, auth),
  };
}

export async function handleModernPost(
  server: McpServer,
  request: HttpRequest,
  body: unknown,
  info: MessageInfo,
  transportOptions: SessionTransportOptions,
): Promise<HttpReply> {
  if (Array.isArray(body))
    return jsonRpcErrorReply(
      400,
      ErrorCode.InvalidRequest,
      "Invalid request: the body must be one message, not a batch",
    );
  const problem = messageProblem(body);
  if (problem) return jsonRpcErrorReply(400, ErrorCode.InvalidRequest, `Invalid request: ${problem}`);
  const message = body as JsonRpcMessage;
  if (!("method" in message)) {
    return jsonRpcErrorReply(
      400,
      ErrorCode.InvalidRequest,
      "Invalid request: clients send no responses on this revision",
    );
  }
  if (!("id" in message)) return { status: 202, headers: {} };
  const id = message.id as RequestId;
  const fail = (error: McpError, status: number) =>
    jsonRpcErrorReply(status, error.code, error.message, undefined, id, error.data);
  // Order: a malformed _meta (-32602), then headers that disagree with it (-32020), then
  // a version this server does not serve (-32022).
  let envelope: Envelope;
  try {
    envelope = readEnvelopeShape(message.params);
    const headerError = checkHeaders(request, message, server);
    if (headerError) return fail(headerError, 400);
    checkServedVersion(server, envelope.version);
  } catch (error) {
    return fail(error as McpError, 400);
  }
  if (!revisionRules(envelope.version).methods.has(message.method)) {
    return fail(new McpError(ErrorCode.MethodNotFound, `Method not found: ${message.method}`), 404);
  }

  const transport = new HttpSessionTransport(undefined, transportOptions);
  const session = await server.connect(transport, { modern: true });
  const response = await transport.post(message, [id], info, (listener) => request.onAbort(listener));
  void transport.settled().then(() => session.close());
  return response;
}
