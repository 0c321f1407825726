import { randomBytes } from "node:crypto";
import { clientKey } from "../../connection/client-key.js";
import { ErrorCode } from "../../jsonrpc/errors.js";
import { definitionOf, type McpServer } from "../../server/mcp-server.js";
import { serveConnection } from "../../server/serve-connection.js";
import type { ServerSession } from "../../server/server-session.js";
import {
  type FetchInfo,
  REPORT_ERROR,
  type ReportingHandler,
  readWebBody,
  toResponse,
} from "../../transports/http/exchange.js";
import { checkOrigin, isJsonContent } from "../../transports/http/guards.js";
import { LOCALHOST_NAMES } from "../../transports/http/localhost.js";
import { jsonRpcErrorReply } from "../../transports/http/responses.js";
import { formatSse, SSE_HEADERS } from "../../transports/http/sse.js";
import { SseSessionTransport } from "../../transports/sse-legacy/sse-server-transport.js";

const errorResponse = (...args: Parameters<typeof jsonRpcErrorReply>) => toResponse(jsonRpcErrorReply(...args));

export interface SseServerOptions {
  /** The path clients POST their messages to (default "/messages"). */
  messagesPath?: string;
  allowedHosts?: readonly string[] | "any";
  allowedOrigins?: readonly string[] | "any";
  /** Largest accepted POST body, bytes (default 4 MiB). */
  maxBodyBytes?: number;
  /** Streams open at once (default 1000). */
  maxSessions?: number;
  /**
   * Streams one client may hold open at once, counted by its address (default a tenth of
   * maxSessions), so that one client cannot take them all. Needs the client's address:
   * mcpkit's Node adapter passes it (`fetch(request, { clientAddress })`); where none is
   * given only the total applies.
   */
  maxSessionsPerClient?: number;
  keepAliveMs?: number;
}

export interface SseHandler extends ReportingHandler {
  /**
   * GET opens a stream; POST to the messages path delivers a message. `info.clientAddress`
   * is the client's address (the Node adapter passes it): streams are capped per client by
   * it, and rate limits and task bounds count by it.
   */
  fetch(request: Request, info?: FetchInfo): Promise<Response>;
  close(): Promise<void>;
}

/**
 * The deprecated HTTP+SSE transport (2024-11-05 basic/transports §HTTP with SSE), for old
 * clients: GET opens an event stream whose first event names the endpoint to POST to.
 */
export function createSseHandler(mcpServer: McpServer, options: SseServerOptions = {}): SseHandler {
  const server = definitionOf(mcpServer);
  const messagesPath = options.messagesPath ?? "/messages";
  const allowedHosts = options.allowedHosts ?? LOCALHOST_NAMES;
  const policy = { allowedHosts, allowedOrigins: options.allowedOrigins ?? allowedHosts };
  const maxBodyBytes = options.maxBodyBytes ?? 4 * 1024 * 1024;
  const maxSessions = options.maxSessions ?? 1000;
  const maxPerClient = options.maxSessionsPerClient ?? Math.max(1, Math.ceil(maxSessions / 10));
  const sessions = new Map<
    string,
    { transport: SseSessionTransport; session: ServerSession; client: string | undefined }
  >();
  /** Streams open per client (its address key). */
  const perClient = new Map<string, number>();

  async function open(address: string | undefined): Promise<Response> {
    if (sessions.size >= maxSessions)
      return errorResponse(503, ErrorCode.InternalError, `Too many sessions (the limit is ${maxSessions})`);
    const client = clientKey(undefined, address);
    const held = client === undefined ? 0 : (perClient.get(client) ?? 0);
    if (client !== undefined && held >= maxPerClient) {
      return errorResponse(
        503,
        ErrorCode.InternalError,
        `Too many sessions from this client (the limit is ${maxPerClient}): close the event streams you no longer use`,
      );
    }
    // Counted before connecting, so that streams opened at once cannot pass the cap together.
    if (client !== undefined) perClient.set(client, held + 1);
    const id = randomBytes(32).toString("base64url");
    const transport = new SseSessionTransport(id, options.keepAliveMs ?? 25_000, () => {
      end(id).catch(server.onError);
    });
    let session: ServerSession;
    try {
      session = await serveConnection(server, transport, { era: "legacy" });
    } catch (error) {
      release(client);
      throw error;
    }
    sessions.set(id, { transport, session, client });
    session.closed.then(() => forget(id)).catch(server.onError);
    transport.connection.write(formatSse({ event: "endpoint", data: `${messagesPath}?sessionId=${id}` }));
    return new Response(transport.connection.body, { status: 200, headers: SSE_HEADERS });
  }

  /** A session gone: its stream no longer counts against its client. */
  function forget(id: string): void {
    const entry = sessions.get(id);
    if (!entry) return;
    sessions.delete(id);
    release(entry.client);
  }

  function release(client: string | undefined): void {
    if (client === undefined) return;
    const left = (perClient.get(client) ?? 1) - 1;
    if (left > 0) perClient.set(client, left);
    else perClient.delete(client);
  }

  async function end(id: string): Promise<void> {
    const entry = sessions.get(id);
    forget(id);
    await entry?.session.close();
  }

  async function post(request: Request, address: string | undefined): Promise<Response> {
    const id = new URL(request.url).searchParams.get("sessionId");
    const entry = id === null ? undefined : sessions.get(id);
    if (!entry) return errorResponse(404, ErrorCode.InvalidRequest, "Unknown sessionId: open the event stream first");
    if (!isJsonContent(request)) {
      return errorResponse(
        415,
        ErrorCode.InvalidRequest,
        "Unsupported Media Type: Content-Type must be application/json",
      );
    }
    const text = await readWebBody(request, maxBodyBytes);
    if (text === undefined) return errorResponse(413, ErrorCode.InvalidRequest, "Payload Too Large");
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch (error) {
      return errorResponse(400, ErrorCode.ParseError, `Parse error: ${(error as Error).message}`);
    }
    entry.transport.sink?.message(body, {
      headers: request.headers,
      ...(address !== undefined && { remoteAddress: address }),
    });
    return new Response("Accepted", { status: 202 });
  }

  return {
    async fetch(request, info) {
      try {
        const rejected = checkOrigin(request, policy);
        if (rejected) return toResponse(rejected);
        const address = info?.clientAddress;
        if (request.method === "GET") return await open(address);
        if (request.method === "POST" && new URL(request.url).pathname === messagesPath)
          return await post(request, address);
        return errorResponse(405, ErrorCode.InvalidRequest, "Method Not Allowed", { allow: "GET, POST" });
      } catch (error) {
        // Unexpected: the operator hears of it, the client gets a bare 500.
        server.onError(error);
        return errorResponse(500, ErrorCode.InternalError, "Internal error");
      }
    },
    [REPORT_ERROR]: (error: unknown) => server.onError(error),
    async close() {
      await Promise.all([...sessions.keys()].map(end));
    },
  };
}
