import { ErrorCode } from "../../jsonrpc/errors.js";
import type { JsonRpcMessage } from "../../jsonrpc/types.js";
import { eraOf } from "../../protocol/era.js";
import { isLegacyRevision } from "../../protocol/versions.js";
import { definitionOf, type McpServer } from "../../server/mcp-server.js";
import { principalOf } from "../../server/principal.js";
import {
  EXCHANGE,
  fromWebRequest,
  type HttpReply,
  type HttpRequest,
  REPORT_ERROR,
  replyFromResponse,
  toResponse,
} from "../../transports/http/exchange.js";
import {
  acceptsPost,
  acceptsSse,
  checkOrigin,
  corsHeaders,
  isJsonContent,
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
  const policy = { allowedHosts, allowedOrigins: options.allowedOrigins ?? allowedHosts };
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
  const legacy = {
    server,
    sessions,
    closing: () => closing,
    keepAliveMs,
    retryAfterSeconds: Math.ceil(Math.min(idleTimeoutMs, 60_000) / 1000),
    admitSession: options.admitSession,
    answer: (message: JsonRpcMessage) => httpAnswer(message, false, auth),
  };
  const modern = { keepAliveMs, answer: (message: JsonRpcMessage) => httpAnswer(message, true, auth) };
  const legacyServed = server.revisions.some(isLegacyRevision);

  async function handlePost(request: HttpRequest, info: MessageInfo): Promise<HttpReply> {
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
    const text = await request.text(maxBodyBytes);
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
    const params = (body as { params?: Record<string, unknown> } | null)?.params;
    if (
      request.headers.get(SESSION_HEADER) === null &&
      eraOf(params, request.headers.get("mcp-protocol-version")) === "modern"
    ) {
      return handleModernPost(server, request, body, info, modern);
    }
    if (!legacyServed) return refuseLegacy(server, request, body);
    return handleLegacyPost(legacy, request, body, info);
  }

  async function handleGet(request: HttpRequest, info: MessageInfo): Promise<HttpReply> {
    if (!sessions) return methodNotAllowed("GET: this server keeps no sessions, so it has no stream to offer");
    if (!acceptsSse(request)) {
      return jsonRpcErrorReply(406, ErrorCode.InvalidRequest, "Not Acceptable: Accept must list text/event-stream");
    }
    const sessionId = request.headers.get(SESSION_HEADER);
    if (sessionId === null)
      return jsonRpcErrorReply(400, ErrorCode.InvalidRequest, "Bad Request: Mcp-Session-Id header is required");
    const versionError = checkLegacyVersion(request);
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

  async function route(request: HttpRequest): Promise<HttpReply> {
    const rejected = checkOrigin(request, policy);
    if (rejected) return rejected;
    if (request.method === "OPTIONS") return preflight(request, options.cors);
    const info: MessageInfo = { headers: request.headers };
    if (request.remoteAddress !== undefined) info.remoteAddress = request.remoteAddress;
    if (auth) {
      if (request.method === "GET" && request.path === auth.metadataPath) {
        return replyFromResponse(auth.serveMetadata(request));
      }
      const verdict = await auth.authenticate(request);
      if (verdict instanceof Response) return replyFromResponse(verdict);
      info.auth = verdict;
    }
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

  async function serve(request: HttpRequest): Promise<HttpReply> {
    let reply: HttpReply;
    try {
      reply = await route(request);
    } catch (error) {
      server.onError(error);
      reply = jsonRpcErrorReply(500, ErrorCode.InternalError, "Internal error");
    }
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
