import { ErrorCode } from "../../jsonrpc/errors.js";
import type { JsonRpcMessage } from "../../jsonrpc/types.js";
import { eraOf } from "../../protocol/era.js";
import { isLegacyRevision } from "../../protocol/versions.js";
import { definitionOf, type McpServer } from "../../server/mcp-server.js";
import { principalOf } from "../../server/principal.js";
import {
  ClientGoneError,
  EXCHANGE,
  fromWebRequest,
  type HttpReply,
  type HttpRequest,
  type MaybeReply,
  REPORT_ERROR,
  replyFromResponse,
  toResponse,
} from "../../transports/http/exchange.js";
import {
  acceptsPost,
  acceptsSse,
  corsHeaders,
  isJsonContent,
  originGuard,
  preflight,
} from "../../transports/http/guards.js";
import { LOCALHOST_NAMES } from "../../transports/http/localhost.js";
import { jsonRpcErrorReply } from "../../transports/http/responses.js";
import { InMemoryEventStore } from "../../transports/streamable-http/server/event-store.js";
import type { MessageInfo } from "../../transports/transport.js";
import { httpAnswer } from "./answer-status.js";
import type { StreamableHttpHandler, StreamableHttpOptions } from "./endpoint-options.js";
import { checkLegacyVersion } from "./header-checks.js";
import { handleLegacyPost, SESSION_HEADER, sessionNotFound, storeUnavailable } from "./legacy-post.js";
import { refuseLegacy } from "./modern-only.js";
import { handleModernPost } from "./modern-post.js";
import { RunningRequests } from "./running-requests.js";
import { SessionTable } from "./session-table.js";

export type { StreamableHttpHandler, StreamableHttpOptions } from "./endpoint-options.js";

/**
 * transports §Streamable HTTP, server side: one MCP endpoint answering POST, GET and
 * DELETE for both eras. Each POST is classified once (protocol/era.ts): a modern request
 * is served on its own, a legacy one by its session. Sessions, resumable SSE streams and
 * DNS-rebinding protection are on by default.
 */
export function createStreamableHttpHandler(
  mcpServer: McpServer,
  options: StreamableHttpOptions = {},
): StreamableHttpHandler {
  const server = definitionOf(mcpServer);
  const allowedHosts = options.allowedHosts ?? LOCALHOST_NAMES;
  const checkOrigin = originGuard({ allowedHosts, allowedOrigins: options.allowedOrigins ?? allowedHosts });
  const maxBodyBytes = options.maxBodyBytes ?? 4 * 1024 * 1024;
  const keepAliveMs = options.keepAliveMs ?? 25_000;
  const auth = options.auth;
  const maxSessions = options.maxSessions ?? 10_000;
  const maxSessionsPerClient = options.maxSessionsPerClient ?? Math.max(1, Math.ceil(maxSessions / 10));
  const idleTimeoutMs = options.idleTimeoutMs ?? 30 * 60_000;
  const sessions =
    options.sessions === false
      ? undefined
      : new SessionTable(server, {
          maxSessions,
          maxSessionsPerClient,
          idleTimeoutMs,
          ...(options.sessionStore && { store: options.sessionStore }),
          ...(options.heartbeatMs !== undefined && { heartbeatMs: options.heartbeatMs }),
          transport: {
            eventStore: options.eventStore === false ? undefined : (options.eventStore ?? new InMemoryEventStore()),
            retryMs: options.retryMs ?? 1000,
            keepAliveMs,
            answer: (message) => httpAnswer(message, false, auth),
            onError: (error) => server.onError(error),
          },
        });
  let closing = false;
  // Requests answered on their own that are still running when the server closes are
  // stopped with its reason, which a handler that honours its signal answers with.
  const running = new RunningRequests();
  server.onClose((reason) => running.abandonAll(reason));
  const legacy = {
    server,
    sessions,
    closing: () => closing,
    retryAfterSeconds: Math.ceil(Math.min(idleTimeoutMs, 60_000) / 1000),
    admitSession: options.admitSession,
    replies: { keepAliveMs, answer: (message: JsonRpcMessage) => httpAnswer(message, false, auth) },
    running,
  };
  const modern = { keepAliveMs, answer: (message: JsonRpcMessage) => httpAnswer(message, true, auth), running };
  const legacyServed = server.revisions.some(isLegacyRevision);

  function handlePost(request: HttpRequest, info: MessageInfo): MaybeReply {
    if (!acceptsPost(request)) {
      return jsonRpcErrorReply(
        406,
        ErrorCode.InvalidRequest,
        "Not Acceptable: Accept must list application/json and text/event-stream",
      );
    }
    if (!isJsonContent(request)) {
      return jsonRpcErrorReply(
        415,
        ErrorCode.InvalidRequest,
        "Unsupported Media Type: Content-Type must be application/json",
      );
    }
    const text = request.text(maxBodyBytes);
    return text instanceof Promise
      ? text.then((read) => handleBody(request, info, read))
      : handleBody(request, info, text);
  }

  /** A POST's body, read: parsed, classified once, served by its era. */
  function handleBody(request: HttpRequest, info: MessageInfo, text: string | undefined): MaybeReply {
    if (text === undefined) {
      return jsonRpcErrorReply(413, ErrorCode.InvalidRequest, `Payload Too Large: the limit is ${maxBodyBytes} bytes`);
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch (error) {
      return jsonRpcErrorReply(400, ErrorCode.ParseError, `Parse error: ${(error as Error).message}`);
    }
    // A request naming a session belongs to it; otherwise the one classifier decides.
    // (Each header is read once and handed on.)
    const params = (body as { params?: Record<string, unknown> } | null)?.params;
    const sessionId = request.headers.get(SESSION_HEADER);
    const version = request.headers.get("mcp-protocol-version");
    if (sessionId === null && eraOf(params, version) === "modern") {
      return handleModernPost(server, request, body, info, modern, version);
    }
    if (!legacyServed) return refuseLegacy(server, request, body);
    return handleLegacyPost(legacy, request, body, info, sessionId, version);
  }

  async function handleGet(request: HttpRequest, info: MessageInfo): Promise<HttpReply> {
    if (!sessions) return methodNotAllowed("GET: this server keeps no sessions, so it has no stream to offer");
    if (!acceptsSse(request)) {
      return jsonRpcErrorReply(406, ErrorCode.InvalidRequest, "Not Acceptable: Accept must list text/event-stream");
    }
    const sessionId = request.headers.get(SESSION_HEADER);
    if (sessionId === null)
      return jsonRpcErrorReply(400, ErrorCode.InvalidRequest, "Bad Request: Mcp-Session-Id header is required");
    const versionError = checkLegacyVersion(request.headers.get("mcp-protocol-version"));
    if (versionError) return versionError;
    if (sessions.unavailable) return storeUnavailable();
    const transport = await sessions.find(sessionId, principalOf(info.auth));
    if (!transport) return sessions.unavailable ? storeUnavailable() : sessionNotFound();
    return transport.get(request.headers.get("last-event-id"));
  }

  async function handleDelete(request: HttpRequest, info: MessageInfo): Promise<HttpReply> {
    if (!sessions) return methodNotAllowed("DELETE: this server keeps no sessions");
    const sessionId = request.headers.get(SESSION_HEADER);
    if (sessionId === null)
      return jsonRpcErrorReply(400, ErrorCode.InvalidRequest, "Bad Request: Mcp-Session-Id header is required");
    if (sessions.unavailable) return storeUnavailable();
    if (!(await sessions.find(sessionId, principalOf(info.auth))))
      return sessions.unavailable ? storeUnavailable() : sessionNotFound();
    await sessions.end(sessionId);
    return { status: 204, headers: {} };
  }

  function route(request: HttpRequest): MaybeReply {
    const rejected = checkOrigin(request);
    if (rejected) return rejected;
    if (request.method === "OPTIONS") return preflight(request, options.cors);
    const info: MessageInfo = { headers: request.headers };
    const address = request.remoteAddress;
    if (address !== undefined) info.remoteAddress = address;
    if (!auth) return byMethod(request, info);
    if (request.method === "GET" && request.path === auth.metadataPath) {
      return replyFromResponse(auth.serveMetadata(request));
    }
    return auth.authenticate(request).then((verdict) => {
      if (verdict instanceof Response) return replyFromResponse(verdict);
      info.auth = verdict;
      return byMethod(request, info);
    });
  }

  function byMethod(request: HttpRequest, info: MessageInfo): MaybeReply {
    switch (request.method) {
      case "POST":
        return handlePost(request, info);
      case "GET":
        return handleGet(request, info);
      case "DELETE":
        return handleDelete(request, info);
      default:
        return methodNotAllowed(`${request.method} is not supported on the MCP endpoint`);
    }
  }

  /** A request served: its reply at once when nothing had to wait, else a promise of it. */
  function serve(request: HttpRequest): MaybeReply {
    let reply: MaybeReply;
    try {
      reply = route(request);
    } catch (error) {
      reply = internalError(error);
    }
    if (!(reply instanceof Promise)) return withCors(request, reply);
    return reply.then(
      (known) => withCors(request, known),
      (error: unknown) => withCors(request, internalError(error)),
    );
  }

  function internalError(error: unknown): HttpReply {
    // No one is left to read this reply, and the server did nothing wrong.
    if (!(error instanceof ClientGoneError)) server.onError(error);
    return jsonRpcErrorReply(500, ErrorCode.InternalError, "Internal error");
  }

  function withCors(request: HttpRequest, reply: HttpReply): HttpReply {
    if (options.cors) Object.assign(reply.headers, corsHeaders(request, options.cors));
    return reply;
  }

  return {
    async fetch(request, info) {
      return toResponse(await serve(fromWebRequest(request, info)));
    },

    [EXCHANGE]: serve,

    [REPORT_ERROR]: (error: unknown) => server.onError(error),

    async close() {
      closing = true;
      await sessions?.closeAll(options.drainTimeoutMs ?? 5000);
    },

    get sessionCount() {
      return sessions?.size ?? 0;
    },
  };
}

const methodNotAllowed = (message: string) =>
  jsonRpcErrorReply(405, ErrorCode.InvalidRequest, `Method Not Allowed: ${message}`, { allow: "GET, POST, DELETE" });
