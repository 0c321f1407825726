import type { Server } from "node:http";
import type { Socket } from "node:net";
import type { Duplex } from "node:stream";

/**
 * Limits on the connections of a node:http server. Node's defaults let a client trickle
 * its headers for a minute and its body for five, and accept connections without bound;
 * these are tighter, and every one can be changed.
 */
export interface ServerLimits {
  /** Time to receive a request's headers, ms (default 10 000); a slower client gets 408. */
  headersTimeoutMs?: number;
  /** Time to receive a whole request, headers and body, ms (default 30 000); 0 disables. Answers streamed back are not limited. */
  requestTimeoutMs?: number;
  /** How long an idle keep-alive connection is kept, ms (default 5000). */
  keepAliveTimeoutMs?: number;
  /** Connections open at once (default 4096); more are closed as they arrive. */
  maxConnections?: number;
  /** How long a connection closed for a refused request keeps reading what the client still sends, ms (default 2000). */
  lingerMs?: number;
}

export const DEFAULT_SERVER_LIMITS: Required<ServerLimits> = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5000,
  maxConnections: 4096,
  lingerMs: 2000,
};

const lingering = new WeakMap<Server, number>();

/**
 * Applies `limits` to a node:http server, and answers the requests Node refuses before any
 * handler sees them (headers too large, too slow, malformed) with a readable JSON-RPC
 * error instead of a reset. Call it before `server.listen()`.
 */
export function applyServerLimits(server: Server, limits: ServerLimits = {}): Server {
  const l = { ...DEFAULT_SERVER_LIMITS, ...limits };
  server.headersTimeout = l.headersTimeoutMs;
  server.requestTimeout = l.requestTimeoutMs;
  server.keepAliveTimeout = l.keepAliveTimeoutMs;
  server.maxConnections = l.maxConnections;
  // Node checks the two timeouts on this interval (default 30 s), so it bounds their precision.
  const shortest = Math.min(l.headersTimeoutMs, l.requestTimeoutMs || l.headersTimeoutMs);
  (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval = Math.max(
    25,
    Math.min(1000, Math.floor(shortest / 4)),
  );
  if (!lingering.has(server)) server.on("clientError", (error, socket) => refuseConnection(server, error, socket));
  lingering.set(server, l.lingerMs);
  return server;
}

const REFUSALS: Record<string, [number, string, string]> = {
  HPE_HEADER_OVERFLOW: [
    431,
    "Request Header Fields Too Large",
    "the request's header block is larger than the server accepts",
  ],
  ERR_HTTP_REQUEST_TIMEOUT: [408, "Request Timeout", "the request was not received in time"],
};

const answered = new WeakSet<Duplex>();

function refuseConnection(server: Server, error: Error & { code?: string }, socket: Duplex): void {
  // Node reports a parser error again for every later chunk: answer once.
  if (answered.has(socket)) return;
  answered.add(socket);
  const headersSent = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent;
  if (error.code === "ECONNRESET" || !socket.writable || headersSent) {
    socket.destroy();
    return;
  }
  const [status, reason, why] = REFUSALS[error.code ?? ""] ?? [400, "Bad Request", "the request is not valid HTTP"];
  const body = JSON.stringify({ jsonrpc: "2.0", error: { code: -32600, message: `${reason}: ${why}` } });
  socket.write(
    `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
  closeLingering(socket, lingering.get(server) ?? DEFAULT_SERVER_LIMITS.lingerMs);
}

/**
 * Ends a connection whose request was not read to its end. Closing a socket with unread
 * input makes the kernel send a reset, and the client then loses the answer it has not read
 * yet; so the write side is ended first, and what still arrives is read and dropped for
 * `lingerMs` or until the client closes its side.
 */
export function closeLingering(socket: Duplex, lingerMs: number): void {
  socket.end();
  socket.on("data", () => {});
  socket.resume();
  const timer = setTimeout(() => socket.destroy(), lingerMs);
  timer.unref?.();
  socket.once("end", () => socket.destroy());
  socket.once("close", () => clearTimeout(timer));
}

/**
 * Makes node:http end this connection with `closeLingering` once its answer is written,
 * instead of destroying it (Node destroys a `Connection: close` socket once the answer is
 * flushed, whatever the client is still sending).
 */
export function lingerAfterAnswer(socket: Socket, lingerMs: number): void {
  Object.defineProperty(socket, "destroySoon", {
    configurable: true,
    value: () => closeLingering(socket, lingerMs),
  });
}

export const lingerOf = (server: Server | undefined): number =>
  (server && lingering.get(server)) ?? DEFAULT_SERVER_LIMITS.lingerMs;
