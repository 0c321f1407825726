import { InboundRequest } from "../../connection/inbound-request.js";
import { ErrorCode, type McpError, methodNotFound } from "../../jsonrpc/errors.js";
import { messageProblem } from "../../jsonrpc/message.js";
import type { JsonRpcMessage, JsonRpcRequest, RequestId } from "../../jsonrpc/types.js";
import { revisionRules } from "../../protocol/revisions.js";
import type { ServerDefinition } from "../../server/definition.js";
import { checkServedVersion, type Envelope, readEnvelopeShape } from "../../server/eras/modern/envelope.js";
import { serveModern } from "../../server/eras/modern/serve.js";
import type { HttpRequest, MaybeReply } from "../../transports/http/exchange.js";
import { jsonRpcErrorReply } from "../../transports/http/responses.js";
import type { SingleReplyOptions } from "../../transports/streamable-http/server/single-reply.js";
import type { MessageInfo } from "../../transports/transport.js";
import { checkModernHeaders } from "./header-checks.js";
import type { RunningRequests } from "./running-requests.js";
import { type ServeOne, SoloRequest } from "./solo-request.js";

/** What the modern path needs of its endpoint, made once per handler. */
export interface ModernPostOptions extends SingleReplyOptions {
  /** The endpoint's requests answered on their own that are running. */
  running: RunningRequests;
}

const failed = (id: RequestId, error: McpError, status: number) =>
  jsonRpcErrorReply(status, error.code, error.message, undefined, id, error.data);

const cancelled = () => Object.assign(new Error("The client closed the response stream"), { name: "AbortError" });

/**
 * The modern path of the MCP endpoint (2026-07-28, transports/streamable-http): no
 * session; the request's revision is in `_meta` and in headers; each POST is one request,
 * answered on its own: as the reply itself when its handler answers at once and sends
 * nothing before (no promise, no stream), else as JSON or SSE when it comes.
 */
export function handleModernPost(
  server: ServerDefinition,
  request: HttpRequest,
  body: unknown,
  info: MessageInfo,
  options: ModernPostOptions,
  versionHeader: string | null,
): MaybeReply {
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
  const id = message.id;
  // Order: a malformed _meta (-32602), then headers that disagree with it (-32020), then
  // a version this server does not serve (-32022).
  let envelope: Envelope;
  try {
    envelope = readEnvelopeShape(message.params);
    const headerError = checkModernHeaders(request, message, server, versionHeader);
    if (headerError) return failed(id, headerError, 400);
    checkServedVersion(server.revisions, envelope.version);
  } catch (error) {
    return failed(id, error as McpError, 400);
  }
  if (!revisionRules(envelope.version).methods.has(message.method)) {
    return failed(id, methodNotFound(message.method), 404);
  }
  const inbound = new InboundRequest(message as JsonRpcRequest, info);
  return new SoloRequest(server, inbound, options, cancelled, options.running).serve(request, serveEnvelope, envelope);
}

/** The modern era serving a request whose `_meta` was read and checked here. */
const serveEnvelope: ServeOne<Envelope> = (server, inbound, notify, envelope) =>
  serveModern(server, inbound, notify, undefined, envelope);
