import { respondTo } from "../../connection/error-answer.js";
import { InboundRequest } from "../../connection/inbound-request.js";
import { ErrorCode, type McpError, methodNotFound } from "../../jsonrpc/errors.js";
import { messageProblem, notification } from "../../jsonrpc/message.js";
import type { JsonRpcMessage, JsonRpcRequest } from "../../jsonrpc/types.js";
import { revisionRules } from "../../protocol/revisions.js";
import type { ServerDefinition } from "../../server/definition.js";
import { checkServedVersion, type Envelope, readEnvelopeShape } from "../../server/eras/modern/envelope.js";
import { serveModern } from "../../server/eras/modern/serve.js";
import type { HttpReply, HttpRequest } from "../../transports/http/exchange.js";
import { jsonRpcErrorReply } from "../../transports/http/responses.js";
import { SingleReply } from "../../transports/streamable-http/server/single-reply.js";
import type { HttpAnswer } from "../../transports/streamable-http/server/stream.js";
import type { MessageInfo } from "../../transports/transport.js";
import { checkModernHeaders } from "./header-checks.js";

/** What the modern path needs of its endpoint, made once per handler. */
export interface ModernPostOptions {
  keepAliveMs: number;
  answer(message: JsonRpcMessage): HttpAnswer;
}

const cancelled = () => Object.assign(new Error("The client closed the response stream"), { name: "AbortError" });

/**
 * The modern path of the MCP endpoint (2026-07-28, transports/streamable-http): no
 * session; the request's revision is in `_meta` and in headers; each POST is one request,
 * answered on its own.
 */
export async function handleModernPost(
  server: ServerDefinition,
  request: HttpRequest,
  body: unknown,
  info: MessageInfo,
  options: ModernPostOptions,
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
  const id = message.id;
  const fail = (error: McpError, status: number) =>
    jsonRpcErrorReply(status, error.code, error.message, undefined, id, error.data);
  // Order: a malformed _meta (-32602), then headers that disagree with it (-32020), then
  // a version this server does not serve (-32022).
  let envelope: Envelope;
  try {
    envelope = readEnvelopeShape(message.params);
    const headerError = checkModernHeaders(request, message, server);
    if (headerError) return fail(headerError, 400);
    checkServedVersion(server.revisions, envelope.version);
  } catch (error) {
    return fail(error as McpError, 400);
  }
  if (!revisionRules(envelope.version).methods.has(message.method)) {
    return fail(methodNotFound(message.method), 404);
  }

  const inbound = new InboundRequest(message as JsonRpcRequest, info);
  const reply = new SingleReply({
    owed: [id],
    batch: false,
    answer: options.answer,
    keepAliveMs: options.keepAliveMs,
    // streamable-http §Cancellation: closing the response stream cancels the request.
    onAbandoned: () => inbound.cancel(cancelled()),
  });
  request.onAbort(() => reply.aborted());
  const notify = (method: string, params: object) => reply.notify(notification(method, params));
  // The server closing stops the request: a handler that honours its signal answers with why.
  const forget = server.onClose((reason) => inbound.abandon(reason));
  respondTo(inbound, () => serveModern(server, inbound, notify), server.onError)
    .then((response) => {
      forget();
      if (!inbound.cancelled) reply.respond(response);
    })
    .catch(server.onError);
  return reply.reply;
}
