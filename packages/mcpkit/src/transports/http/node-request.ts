import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import {
  type AbortTarget,
  ClientGoneError,
  type FetchHandler,
  type HeaderReader,
  type HttpRequest,
} from "./exchange.js";
import { bodyWasRead, parsedBodyText } from "./parsed-body.js";
import type { ClientAddressOf } from "./trust-proxy.js";

/**
 * A POST body announced by Content-Length up to this size is read before the handler is
 * called, so that a handler with nothing to wait for answers in the turn the body arrives:
 * no promise between the socket and the reply. Larger or chunked bodies are read when the
 * handler asks, against its own limit.
 */
export const PREFETCH_BYTES = 64 * 1024;

class NodeHeaders implements HeaderReader {
  constructor(private readonly raw: IncomingMessage["headers"]) {}

  get(name: string): string | null {
    const value = this.raw[name];
    if (value === undefined) return null;
    return Array.isArray(value) ? value.join(", ") : value;
  }
}

/** Where the prefetched body goes; the listeners are shared functions, not closures per request. */
const PREFETCH: unique symbol = Symbol("mcpkit.prefetch");
type Prefetching = IncomingMessage & { [PREFETCH]: NodeRequest };

function onPrefetchData(this: Prefetching, chunk: Buffer): void {
  this[PREFETCH].take(chunk);
}
function onPrefetchEnd(this: Prefetching): void {
  this[PREFETCH].bodyEnded();
}
function onPrefetchError(this: Prefetching, error: Error): void {
  // A request stream fails only when its client's connection does.
  this[PREFETCH].bodyFailed(new ClientGoneError(error));
}

/** The response's request, for its close listener (a shared function, not a closure per request). */
const WATCHER: unique symbol = Symbol("mcpkit.watcher");
type Watched = ServerResponse & { [WATCHER]: NodeRequest };

function onResponseClose(this: Watched): void {
  this[WATCHER].responseClosed();
}

/** A node:http request as the MCP endpoints read it (exchange.ts), without building a Web Request. */
export class NodeRequest implements HttpRequest {
  readonly headers: NodeHeaders;
  /** The body was too large and is not read to its end: the connection is closed after the reply. */
  overflowed = false;
  /** The client's address behind trusted proxies, once worked out. */
  private forwarded: { address: string | undefined } | undefined;
  private request: Request | undefined;
  /** A prefetched body: its first chunk, the rest, and then its text. */
  private chunk: Buffer | undefined;
  private chunks: Buffer[] | undefined;
  private bodySize = 0;
  private body: string | undefined;
  private ready: ((request: NodeRequest, error?: unknown) => void) | undefined;
  /** Who hears of the client going away (onAbort): one, or several. */
  private abortTargets: AbortTarget | AbortTarget[] | undefined;

  /**
   * `handler` serves it; `onError` hears of a request that failed unexpectedly
   * (NodeListenerOptions.onError).
   */
  constructor(
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
    private readonly parsedBody: unknown,
    private readonly addressOf: ClientAddressOf | undefined,
    readonly handler: FetchHandler,
    readonly onError: ((error: unknown) => void) | undefined,
  ) {
    this.headers = new NodeHeaders(req.headers);
  }

  /**
   * Starts reading a small POST body announced by Content-Length (PREFETCH_BYTES) and
   * calls `ready(this)` once it is in (`ready(this, error)` if the stream failed); false
   * when there is nothing to prefetch, and the caller goes on at once.
   */
  prefetch(ready: (request: NodeRequest, error?: unknown) => void): boolean {
    const req = this.req;
    if (req.method !== "POST" || bodyWasRead(req)) return false;
    const declared = req.headers["content-length"];
    if (declared === undefined) return false;
    const length = Number(declared);
    if (!(length > 0 && length <= PREFETCH_BYTES)) return false;
    this.ready = ready;
    (req as Prefetching)[PREFETCH] = this;
    req.on("data", onPrefetchData);
    req.on("end", onPrefetchEnd);
    req.on("error", onPrefetchError);
    return true;
  }

  /** @internal A chunk of the prefetched body. */
  take(chunk: Buffer): void {
    this.bodySize += chunk.length;
    if (this.chunk === undefined) this.chunk = chunk;
    else if (this.chunks === undefined) this.chunks = [this.chunk, chunk];
    else this.chunks.push(chunk);
  }

  /** @internal The prefetched body is in. */
  bodyEnded(): void {
    const chunk = this.chunk;
    this.body =
      this.chunks !== undefined
        ? Buffer.concat(this.chunks, this.bodySize).toString("utf8")
        : chunk === undefined
          ? ""
          : chunk.toString("utf8");
    this.chunk = undefined;
    this.chunks = undefined;
    this.ready?.(this);
  }

  /** @internal The body stream failed before its end. */
  bodyFailed(error: Error): void {
    const ready = this.ready;
    this.ready = undefined;
    ready?.(this, error);
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

  onAbort(target: AbortTarget): void {
    const res = this.res;
    if (res.closed) {
      if (!res.writableFinished) target.aborted();
      return;
    }
    const targets = this.abortTargets;
    if (targets === undefined) {
      this.abortTargets = target;
      (res as Watched)[WATCHER] = this;
      res.on("close", onResponseClose);
    } else if (Array.isArray(targets)) targets.push(target);
    else this.abortTargets = [targets, target];
  }

  /** @internal The response closed: if before it was complete, the client went away. */
  responseClosed(): void {
    const targets = this.abortTargets;
    this.abortTargets = undefined;
    if (targets === undefined || this.res.writableFinished) return;
    if (Array.isArray(targets)) for (const target of targets) target.aborted();
    else targets.aborted();
  }

  /** The body's text: at once when it was prefetched or parsed by a framework, else when read. */
  text(limit: number): string | undefined | Promise<string | undefined> {
    // Read whole already: a body over the limit leaves nothing unread on the connection.
    if (this.body !== undefined) return this.bodySize > limit ? undefined : this.body;
    if (bodyWasRead(this.req)) {
      const text = parsedBodyText(this.parsedBody);
      return Buffer.byteLength(text) > limit ? undefined : text;
    }
    const declared = Number(this.req.headers["content-length"] ?? Number.NaN);
    if (declared > limit) {
      this.overflowed = true;
      return undefined;
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
      this.req.once("error", (error) => reject(new ClientGoneError(error)));
    });
  }

  private abortSignal(): AbortSignal {
    const controller = new AbortController();
    this.onAbort({ aborted: () => controller.abort() });
    return controller.signal;
  }

  toRequest(): Request {
    this.request ??= new Request(this.url, {
      method: this.method,
      headers: webHeaders(this.req.headers),
      body:
        this.method === "GET" || this.method === "HEAD"
          ? undefined
          : this.body !== undefined
            ? this.body
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
