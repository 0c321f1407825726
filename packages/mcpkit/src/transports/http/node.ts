import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import {
  ClientGoneError,
  exchange,
  type FetchHandler,
  type HttpReply,
  type MaybeReply,
  reportHttpError,
} from "./exchange.js";
import { NodeRequest } from "./node-request.js";
import { BODY_GONE, bodyWasRead } from "./parsed-body.js";
import { applyServerLimits, lingerAfterAnswer, lingerOf, type ServerLimits } from "./server-limits.js";
import { type ClientAddressOf, clientAddressResolver, type TrustProxy } from "./trust-proxy.js";

export type { FetchHandler, FetchInfo } from "./exchange.js";

/**
 * The node:http adapter. Handlers built by mcpkit are served directly: the body is read
 * from the socket with its size limit, and a JSON answer is written in one piece with its
 * length. Any other fetch handler gets a Web Request (its body streamed) and its Response
 * is written back as it is produced, SSE included.
 */
export function toNodeListener(
  handler: FetchHandler,
  options: NodeListenerOptions = {},
): (req: IncomingMessage, res: ServerResponse) => void {
  // Compiled here: a wrong proxy address fails at start-up, not on a request.
  if (options.trustProxy) resolverOf(options.trustProxy);
  // A body parser in front (express.json()) leaves what it read on req.body.
  return (req, res) => serveNodeRequest(handler, req, res, (req as { body?: unknown }).body, options);
}

/** Each trustProxy option compiled once, however many requests name it. */
const resolvers = new WeakMap<TrustProxy, ClientAddressOf>();
function resolverOf(trust: TrustProxy): ClientAddressOf {
  let resolver = resolvers.get(trust);
  if (!resolver) {
    resolver = clientAddressResolver(trust);
    resolvers.set(trust, resolver);
  }
  return resolver;
}

export interface NodeListenerOptions {
  /**
   * A request that failed unexpectedly (the handler threw, the reply could not be written).
   * Default: mcpkit's handlers pass it to the server's onError; any other handler's goes to
   * stderr.
   */
  onError?: (error: unknown) => void;
  /**
   * Reverse proxies whose forwarded address (X-Forwarded-For) names the client, for every
   * limit counted per client: session caps, rate limits, task bounds and the authorization
   * server's rates. Off by default: the client is the connection's peer. Read only from
   * connections those proxies make; see TrustProxy.
   */
  trustProxy?: TrustProxy;
}

/**
 * Serves one node:http request with `handler`. `parsedBody` is what a framework already
 * read from the request (used only when it did read the stream: an unread stream is read
 * with the handler's size limit).
 */
export function serveNodeRequest(
  handler: FetchHandler,
  req: IncomingMessage,
  res: ServerResponse,
  parsedBody?: unknown,
  options: NodeListenerOptions = {},
): void {
  if (req.method === "POST" && bodyWasRead(req) && parsedBody === undefined) {
    // Waiting for the stream would hang until the client gives up: say why instead.
    res.writeHead(500, { "content-type": "application/json" }).end(BODY_GONE);
    return;
  }
  const addressOf = options.trustProxy && resolverOf(options.trustProxy);
  const request = new NodeRequest(req, res, parsedBody, addressOf, handler, options.onError);
  // A small body is read first, so the handler can answer in the turn it arrives.
  if (!request.prefetch(answer)) answer(request);
}

/** Runs the handler; `bodyError`: the prefetched body's stream failed. */
function answer(request: NodeRequest, bodyError?: unknown): void {
  if (bodyError !== undefined) {
    failed(request, bodyError);
    return;
  }
  let reply: MaybeReply;
  try {
    reply = exchange(request.handler, request);
  } catch (error) {
    failed(request, error);
    return;
  }
  // A reply known at once is written at once: no promise, no turn of the microtask queue.
  if (!(reply instanceof Promise)) {
    writeOrFail(request, reply);
    return;
  }
  reply.then(
    (known) => writeOrFail(request, known),
    (error: unknown) => failed(request, error),
  );
}

function writeOrFail(request: NodeRequest, reply: HttpReply): void {
  try {
    if (typeof reply.body === "object") {
      writeStream(reply, reply.body, request.req, request.res).catch((error: unknown) => failed(request, error));
    } else writeWhole(reply, reply.body, request, request.res);
  } catch (error) {
    failed(request, error);
  }
}

/** A failed handler, a broken body stream or a reply that could not be written: reported, answered 500 if nothing was sent yet. */
function failed(request: NodeRequest, error: unknown): void {
  const { onError, res } = request;
  if (error instanceof ClientGoneError) {
    // Nobody is left to answer, and nothing failed here.
    res.destroy();
    return;
  }
  if (onError) onError(error);
  else reportHttpError(request.handler, error, request);
  if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
  res.end();
}

/** A whole body (JSON) or none, with its length: one write. */
function writeWhole(reply: HttpReply, body: string | undefined, request: NodeRequest, res: ServerResponse): void {
  // A reply is made for its one request: its headers take the length rather than a copy.
  const headers: Record<string, string | string[] | number> = reply.headers;
  if (body !== undefined) headers["content-length"] = Buffer.byteLength(body);
  // What is left of an oversized body is not read: the connection ends with the reply,
  // gracefully, so that the client reads the 413 rather than a reset.
  if (request.overflowed) {
    const socket = request.req.socket;
    headers.connection = "close";
    lingerAfterAnswer(socket, lingerOf((socket as { server?: Server }).server));
  }
  res.writeHead(reply.status, headers);
  res.end(body);
}

/** A body produced as it goes (SSE), written as it comes. */
async function writeStream(
  reply: HttpReply,
  body: ReadableStream<Uint8Array>,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  res.writeHead(reply.status, reply.headers);
  if (String(reply.headers["content-type"] ?? "").startsWith("text/event-stream")) {
    res.flushHeaders();
    req.socket.setNoDelay(true);
  }
  const reader = body.getReader();
  // The client left: the stream's own failure to cancel is of no further use to anyone.
  res.on("close", () => {
    reader.cancel().catch(() => {});
  });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) await new Promise((resolve) => res.once("drain", resolve).once("close", resolve));
      if (res.destroyed) break;
    }
  } finally {
    res.end();
  }
}

export interface ListenOptions extends ServerLimits {
  port?: number;
  /** Default 127.0.0.1: a local server is not exposed to the network unless asked. */
  host?: string;
  /** Reverse proxies whose X-Forwarded-For names the client (NodeListenerOptions.trustProxy); off by default. */
  trustProxy?: TrustProxy;
}

export interface Listening {
  readonly server: Server;
  /** The base URL, e.g. http://127.0.0.1:3000 */
  readonly url: URL;
  close(): Promise<void>;
}

/**
 * Serves a fetch handler on node:http, with the connection limits of `applyServerLimits`
 * (header and request timeouts, keep-alive, a connection cap). close() stops listening and
 * ends open connections.
 */
export async function listen(
  handler: FetchHandler & { close?(): Promise<void> },
  options: ListenOptions = {},
): Promise<Listening> {
  const listener = toNodeListener(handler, options.trustProxy ? { trustProxy: options.trustProxy } : {});
  const server = applyServerLimits(createServer(listener), options);
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const url = new URL(`http://${host.includes(":") ? `[${host}]` : host}:${port}`);
  return {
    server,
    url,
    async close() {
      await handler.close?.();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
