import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import {
  exchange,
  type FetchHandler,
  type HeaderReader,
  type HttpReply,
  type HttpRequest,
  type MaybeReply,
  reportHttpError,
} from "./exchange.js";
import { BODY_GONE, bodyWasRead, parsedBodyText } from "./parsed-body.js";
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
  const request = new NodeRequest(req, res, parsedBody, addressOf);
  let reply: MaybeReply;
  try {
    reply = exchange(handler, request);
  } catch (error) {
    failed(error, handler, request, res, options);
    return;
  }
  // A reply known at once is written at once: no promise, no turn of the microtask queue.
  if (!(reply instanceof Promise)) {
    writeOrFail(reply, handler, request, res, options);
    return;
  }
  reply.then(
    (known) => writeOrFail(known, handler, request, res, options),
    (error: unknown) => failed(error, handler, request, res, options),
  );
}

function writeOrFail(
  reply: HttpReply,
  handler: FetchHandler,
  request: NodeRequest,
  res: ServerResponse,
  options: NodeListenerOptions,
): void {
  try {
    if (typeof reply.body === "object") {
      writeStream(reply, reply.body, request.req, res).catch((error: unknown) =>
        failed(error, handler, request, res, options),
      );
    } else writeWhole(reply, reply.body, request, res);
  } catch (error) {
    failed(error, handler, request, res, options);
  }
}

/** A failed handler, a broken body stream or a reply that could not be written: reported, answered 500 if nothing was sent yet. */
function failed(
  error: unknown,
  handler: FetchHandler,
  request: NodeRequest,
  res: ServerResponse,
  options: NodeListenerOptions,
): void {
  if (options.onError) options.onError(error);
  else reportHttpError(handler, error, request);
  if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
  res.end();
}

class NodeHeaders implements HeaderReader {
  constructor(private readonly raw: IncomingMessage["headers"]) {}

  get(name: string): string | null {
    const value = this.raw[name];
    if (value === undefined) return null;
    return Array.isArray(value) ? value.join(", ") : value;
  }
}

class NodeRequest implements HttpRequest {
  readonly headers: NodeHeaders;
  /** The body was too large: the connection is closed after the reply. */
  overflowed = false;
  /** The client's address behind trusted proxies, once worked out. */
  private forwarded: { address: string | undefined } | undefined;
  private request: Request | undefined;

  constructor(
    readonly req: IncomingMessage,
    private readonly res: ServerResponse,
    private readonly parsedBody: unknown,
    private readonly addressOf: ClientAddressOf | undefined,
  ) {
    this.headers = new NodeHeaders(req.headers);
  }

  get method(): string {
    return this.req.method ?? "GET";
  }

  /** The path as the client sent it (Express rewrites req.url under a mount point, not originalUrl). */
  private get target(): string {
    return (this.req as { originalUrl?: string }).originalUrl ?? this.req.url ?? "/";
  }

  get url(): string {
    return `http://${this.req.headers.host ?? "localhost"}${this.target}`;
  }

  get remoteAddress(): string | undefined {
    const peer = this.req.socket.remoteAddress;
    if (!this.addressOf) return peer;
    this.forwarded ??= { address: this.addressOf(peer, this.headers) };
    return this.forwarded.address;
  }

  get path(): string {
    const raw = this.target;
    const query = raw.indexOf("?");
    return query === -1 ? raw : raw.slice(0, query);
  }

  onAbort(listener: () => void): void {
    const res = this.res;
    if (res.closed) {
      if (!res.writableFinished) listener();
      return;
    }
    res.once("close", () => {
      if (!res.writableFinished) listener();
    });
  }

  text(limit: number): Promise<string | undefined> {
    if (bodyWasRead(this.req)) {
      const text = parsedBodyText(this.parsedBody);
      return Promise.resolve(Buffer.byteLength(text) > limit ? undefined : text);
    }
    const declared = Number(this.req.headers["content-length"] ?? Number.NaN);
    if (declared > limit) {
      this.overflowed = true;
      return Promise.resolve(undefined);
    }
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const onData = (chunk: Buffer) => {
        size += chunk.length;
        if (size > limit) {
          this.overflowed = true;
          this.req.off("data", onData);
          this.req.off("end", onEnd);
          // The rest is read and dropped: the answer goes out, then the connection lingers closed.
          this.req.resume();
          resolve(undefined);
          return;
        }
        chunks.push(chunk);
      };
      const onEnd = () =>
        resolve(
          chunks.length === 1 ? (chunks[0] as Buffer).toString("utf8") : Buffer.concat(chunks, size).toString("utf8"),
        );
      this.req.on("data", onData);
      this.req.once("end", onEnd);
      this.req.once("error", reject);
    });
  }

  private abortSignal(): AbortSignal {
    const controller = new AbortController();
    this.onAbort(() => controller.abort());
    return controller.signal;
  }

  toRequest(): Request {
    this.request ??= new Request(this.url, {
      method: this.method,
      headers: webHeaders(this.req.headers),
      body:
        this.method === "GET" || this.method === "HEAD"
          ? undefined
          : bodyWasRead(this.req)
            ? parsedBodyText(this.parsedBody)
            : (Readable.toWeb(this.req) as ReadableStream<Uint8Array>),
      signal: this.abortSignal(),
      // Required by undici for a streamed request body.
      duplex: "half",
    } as RequestInit);
    return this.request;
  }
}

function webHeaders(raw: IncomingMessage["headers"]): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, value);
  }
  return headers;
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
