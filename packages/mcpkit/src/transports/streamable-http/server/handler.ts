import { randomBytes } from "node:crypto";
import type { ResourceServer } from "../../../auth/server/resource-server.js";
import type { AuthInfo } from "../../../auth/server/types.js";
import { ErrorCode } from "../../../jsonrpc/errors.js";
import { messageProblem } from "../../../jsonrpc/message.js";
import type { JsonRpcMessage, RequestId } from "../../../jsonrpc/types.js";
import {
  DEFAULT_NEGOTIATED_REVISION,
  isStatefulRevision,
  type Revision,
  STATEFUL_REVISIONS,
} from "../../../protocol/versions.js";
import type { McpServer } from "../../../server/server.js";
import {
  EXCHANGE,
  type ExchangeHandler,
  fromWebRequest,
  type HttpReply,
  type HttpRequest,
  replyFromResponse,
  toResponse,
} from "../../http/exchange.js";
import type { MessageInfo } from "../../transport.js";
import { httpAnswer } from "./answer-status.js";
import { type EventStore, InMemoryEventStore } from "./event-store.js";
import {
  acceptsPost,
  acceptsSse,
  type CorsOptions,
  checkOrigin,
  corsHeaders,
  isJsonContent,
  LOCALHOST_NAMES,
  preflight,
} from "./guards.js";
import { handleModernPost, isModernPost, modernTransportOptions } from "./modern.js";
import { jsonRpcErrorReply } from "./responses.js";
import { HttpSessionTransport } from "./session-transport.js";

export interface StreamableHttpOptions {
  /** Sessions with Mcp-Session-Id (default true); false serves each POST on its own. */
  sessions?: boolean;
  /** Where SSE events are kept for resumption (default: in memory); false disables resumption. */
  eventStore?: EventStore | false;
  /** Host names the Host header may carry (default: localhost names); "any" disables the check. */
  allowedHosts?: readonly string[] | "any";
  /** Origins that may call (default: the allowed hosts); "any" disables the check. */
  allowedOrigins?: readonly string[] | "any";
  /** CORS for browser clients (default: off). */
  cors?: CorsOptions;
  /** Largest accepted POST body, bytes (default 4 MiB): larger ones get 413. */
  maxBodyBytes?: number;
  /** Sessions held at once (default 10 000); an initialize beyond it gets 503. */
  maxSessions?: number;
  /** A session with no request, stream or activity for this long is closed, ms (default 30 min). */
  idleTimeoutMs?: number;
  /** The SSE `retry` advice, ms (default 1000). */
  retryMs?: number;
  /** Comment lines on idle SSE streams, ms (default 25 000; 0 disables). */
  keepAliveMs?: number;
  /** How long close() waits for requests in progress, ms (default 5000). */
  drainTimeoutMs?: number;
  /**
   * Authorization (basic/authorization): every request needs a bearer token the resource
   * server accepts; its Protected Resource Metadata is served at its well-known path, and
   * each session is bound to the principal that opened it.
   */
  auth?: ResourceServer;
}

export interface StreamableHttpHandler extends ExchangeHandler {
  /** The Web-standard handler: works on Node (through the adapter), Bun, Deno and Workers. */
  fetch(request: Request): Promise<Response>;
  /** Stops accepting sessions, lets requests in progress finish, then closes every session. */
  close(): Promise<void>;
  readonly sessionCount: number;
}

const principalOf = (info: MessageInfo): string | undefined => {
  const auth = info.auth as AuthInfo | undefined;
  return auth?.subject ?? auth?.clientId;
};

const SESSION_HEADER = "mcp-session-id";

/** A session id: 32 bytes from a CSPRNG, base64url (visible ASCII, lifecycle §Session Management). */
const newSessionId = () => randomBytes(32).toString("base64url");

/**
 * transports §Streamable HTTP, server side: one MCP endpoint answering POST, GET and
 * DELETE, with sessions, resumable SSE streams and DNS-rebinding protection by default.
 */
export function createStreamableHttpHandler(
  server: McpServer,
  options: StreamableHttpOptions = {},
): StreamableHttpHandler {
  const stateful = options.sessions ?? true;
  const eventStore = options.eventStore === false ? undefined : (options.eventStore ?? new InMemoryEventStore());
  const allowedHosts = options.allowedHosts ?? LOCALHOST_NAMES;
  const policy = { allowedHosts, allowedOrigins: options.allowedOrigins ?? allowedHosts };
  const maxBodyBytes = options.maxBodyBytes ?? 4 * 1024 * 1024;
  const maxSessions = options.maxSessions ?? 10_000;
  const idleTimeoutMs = options.idleTimeoutMs ?? 30 * 60_000;
  const transportOptions = {
    eventStore: stateful ? eventStore : undefined,
    retryMs: options.retryMs ?? 1000,
    keepAliveMs: options.keepAliveMs ?? 25_000,
    answer: (message: JsonRpcMessage) => httpAnswer(message, false, options.auth),
    // However a session ends (DELETE, idle sweep, server.close()), it is forgotten.
    onClosed: (id: string) => sessions.delete(id),
  };
  // A session is its transport: closing the transport ends the server session with it.
  const sessions = new Map<string, HttpSessionTransport>();
  const modernOptions = modernTransportOptions(transportOptions, options.auth);
  let closing = false;

  const sweep = setInterval(
    () => {
      const cutoff = Date.now() - idleTimeoutMs;
      for (const [id, s] of sessions) {
        if (s.lastActivity < cutoff && !s.busy) void endSession(id);
      }
    },
    Math.min(idleTimeoutMs, 60_000),
  );
  sweep.unref?.();

  async function endSession(id: string): Promise<void> {
    const entry = sessions.get(id);
    if (!entry) return;
    sessions.delete(id);
    await entry.close();
  }

  /** A session of this caller: another principal's session id is as unknown as a made-up one. */
  function sessionFor(id: string, info: MessageInfo): HttpSessionTransport | undefined {
    const entry = sessions.get(id);
    return entry && entry.principal === principalOf(info) ? entry : undefined;
  }

  async function openSession(
    assumeRevision: Revision | undefined,
    sessionId: string | undefined,
    info: MessageInfo,
  ): Promise<HttpSessionTransport> {
    const transport = new HttpSessionTransport(sessionId, transportOptions);
    transport.principal = principalOf(info);
    await server.connect(transport, assumeRevision ? { assumeRevision } : undefined);
    if (sessionId) sessions.set(sessionId, transport);
    return transport;
  }

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
    if (isModernPost(request, body)) {
      return handleModernPost(server, request, body, info, modernOptions);
    }
    const versionError = checkLegacyVersion(request);
    if (versionError) return versionError;
    const messages = Array.isArray(body) ? body : [body];
    if (messages.length === 0) return jsonRpcErrorReply(400, ErrorCode.InvalidRequest, "Invalid request: empty batch");
    if (!Array.isArray(body)) {
      const problem = messageProblem(body);
      if (problem) return jsonRpcErrorReply(400, ErrorCode.InvalidRequest, `Invalid request: ${problem}`);
    }
    const requestIds: RequestId[] = [];
    let initialize = false;
    for (const m of messages) {
      if (typeof m === "object" && m !== null && typeof m.method === "string" && "id" in m) {
        if (typeof m.id === "string" || typeof m.id === "number") requestIds.push(m.id);
        if (m.method === "initialize") initialize = true;
      }
    }
    if (initialize && messages.length > 1) {
      return jsonRpcErrorReply(
        400,
        ErrorCode.InvalidRequest,
        "Invalid request: initialize must not be part of a batch",
      );
    }

    const sessionId = request.headers.get(SESSION_HEADER);
    if (!stateful) {
      // Each POST is served by a fresh session that ends with it.
      const version = request.headers.get("mcp-protocol-version");
      const entry = await openSession(
        initialize ? undefined : ((version as Revision | null) ?? DEFAULT_NEGOTIATED_REVISION),
        undefined,
        info,
      );
      const response = await entry.post(body, requestIds, info);
      void entry.settled().then(() => entry.close());
      return response;
    }
    if (initialize && sessionId === null) {
      if (closing) return jsonRpcErrorReply(503, ErrorCode.InternalError, "Server is shutting down");
      if (sessions.size >= maxSessions) {
        return jsonRpcErrorReply(503, ErrorCode.InternalError, "Too many sessions: try again later", {
          "retry-after": "60",
        });
      }
      const id = newSessionId();
      const entry = await openSession(undefined, id, info);
      const reply = await entry.post(body, requestIds, info);
      reply.headers[SESSION_HEADER] = id;
      return reply;
    }
    if (sessionId === null) {
      return jsonRpcErrorReply(
        400,
        ErrorCode.InvalidRequest,
        "Bad Request: Mcp-Session-Id header is required (send initialize first)",
      );
    }
    const entry = sessionFor(sessionId, info);
    if (!entry) return sessionNotFound();
    return entry.post(body, requestIds, info);
  }

  async function handleGet(request: HttpRequest, info: MessageInfo): Promise<HttpReply> {
    if (!stateful) return methodNotAllowed("GET: this server keeps no sessions, so it has no stream to offer");
    if (!acceptsSse(request)) {
      return jsonRpcErrorReply(406, ErrorCode.InvalidRequest, "Not Acceptable: Accept must list text/event-stream");
    }
    const sessionId = request.headers.get(SESSION_HEADER);
    if (sessionId === null)
      return jsonRpcErrorReply(400, ErrorCode.InvalidRequest, "Bad Request: Mcp-Session-Id header is required");
    const versionError = checkLegacyVersion(request);
    if (versionError) return versionError;
    const entry = sessionFor(sessionId, info);
    if (!entry) return sessionNotFound();
    return entry.get(request.headers.get("last-event-id"));
  }

  async function handleDelete(request: HttpRequest, info: MessageInfo): Promise<HttpReply> {
    if (!stateful) return methodNotAllowed("DELETE: this server keeps no sessions");
    const sessionId = request.headers.get(SESSION_HEADER);
    if (sessionId === null)
      return jsonRpcErrorReply(400, ErrorCode.InvalidRequest, "Bad Request: Mcp-Session-Id header is required");
    if (!sessionFor(sessionId, info)) return sessionNotFound();
    await endSession(sessionId);
    return { status: 204, headers: {} };
  }

  async function route(request: HttpRequest): Promise<HttpReply> {
    const rejected = checkOrigin(request, policy);
    if (rejected) return rejected;
    if (request.method === "OPTIONS") return preflight(request, options.cors);
    const info: MessageInfo = { headers: request.headers };
    if (options.auth) {
      if (request.method === "GET" && request.path === options.auth.metadataPath) {
        return replyFromResponse(options.auth.serveMetadata(request));
      }
      const verdict = await options.auth.authenticate(request);
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
    } catch {
      reply = jsonRpcErrorReply(500, ErrorCode.InternalError, "Internal error");
    }
    if (options.cors) Object.assign(reply.headers, corsHeaders(request, options.cors));
    return reply;
  }

  return {
    async fetch(request) {
      return toResponse(await serve(fromWebRequest(request)));
    },

    [EXCHANGE]: serve,

    async close() {
      closing = true;
      clearInterval(sweep);
      const deadline = Date.now() + (options.drainTimeoutMs ?? 5000);
      while (Date.now() < deadline && [...sessions.values()].some((s) => s.answering)) {
        await new Promise((r) => setTimeout(r, 25));
      }
      await Promise.all([...sessions.keys()].map(endSession));
    },

    get sessionCount() {
      return sessions.size;
    },
  };
}

/** transports §Protocol Version Header (2025-11-25): an unsupported version gets 400. */
function checkLegacyVersion(request: HttpRequest): HttpReply | undefined {
  const version = request.headers.get("mcp-protocol-version")?.trim();
  if (version === undefined || isStatefulRevision(version)) return undefined;
  return jsonRpcErrorReply(
    400,
    ErrorCode.UnsupportedProtocolVersion,
    `Bad Request: unsupported MCP-Protocol-Version ${version} for a session (start 2026-07-28 requests without Mcp-Session-Id)`,
    undefined,
    undefined,
    { supported: [...STATEFUL_REVISIONS].reverse(), requested: version },
  );
}

const sessionNotFound = () =>
  jsonRpcErrorReply(404, ErrorCode.InvalidRequest, "Session not found: it ended or expired; initialize a new one");

const methodNotAllowed = (message: string) =>
  jsonRpcErrorReply(405, ErrorCode.InvalidRequest, `Method Not Allowed: ${message}`, { allow: "GET, POST, DELETE" });
