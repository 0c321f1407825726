import type { HeaderReader } from "../transport.js";

export type { HeaderReader } from "../transport.js";

/**
 * The HTTP request and reply as the MCP endpoints see them. The public handlers speak Web
 * `Request`/`Response`; inside, they work on these smaller shapes so that the Node adapter
 * can serve them without building either (the undici objects, their AbortSignal and body
 * streams cost more than the rest of a tools/call).
 */

export interface HttpRequest {
  readonly method: string;
  /** The absolute URL. */
  readonly url: string;
  /** The path, without the query. */
  readonly path: string;
  readonly headers: HeaderReader;
  /** The client's IP address, when the server knows it (node:http does; a Web Request does not). */
  readonly remoteAddress?: string;
  /** Tells `target` if the client goes away before the reply is complete. */
  onAbort(target: AbortTarget): void;
  /**
   * The body as UTF-8 text, or undefined when it is larger than `limit` bytes: at once
   * when the adapter has it already (the Node adapter reads small bodies first), else a
   * promise of it. A client that hangs up before the body is in rejects it with a
   * ClientGoneError.
   */
  text(limit: number): string | undefined | Promise<string | undefined>;
  /** The same request as a Web Request, for APIs that take one. */
  toRequest(): Request;
}

/**
 * The client closed its connection before its request's body was in. Nobody is left to
 * answer, and nothing failed on the server's side: handlers end the request without
 * reporting it to onError.
 */
export class ClientGoneError extends Error {
  constructor(cause: unknown) {
    super("The client closed the connection before its request's body was in", { cause });
    this.name = "ClientGoneError";
  }
}

/** What hears of a client gone before its reply was complete (an object, so no closure is made per request). */
export interface AbortTarget {
  aborted(): void;
}

export interface HttpReply {
  status: number;
  headers: Record<string, string | string[]>;
  /** A whole body (JSON), a stream (SSE), or nothing. */
  body?: string | ReadableStream<Uint8Array>;
}

/** Handlers that can serve an HttpRequest directly (the Node adapter's fast path). */
export const EXCHANGE: unique symbol = Symbol.for("mcpkit.http.exchange");

/** A reply known at once, or one still being made: the direct path makes no promise it does not need. */
export type MaybeReply = HttpReply | Promise<HttpReply>;

export interface ExchangeHandler {
  [EXCHANGE](request: HttpRequest): MaybeReply;
}

/**
 * Where a handler wants the failures an adapter meets while serving it (a reply that
 * could not be written): mcpkit's handlers pass them to the server's onError.
 */
export const REPORT_ERROR: unique symbol = Symbol.for("mcpkit.http.reportError");

export interface ReportingHandler {
  /** `request` is the one being served, when known (a router passes it on to the handler it chose). */
  [REPORT_ERROR](error: unknown, request?: HttpRequest): void;
}

/** Tells `handler`'s reporter about `error`, or stderr when it has none: never silence. */
export function reportHttpError(handler: object, error: unknown, request?: HttpRequest): void {
  const report = (handler as Partial<ReportingHandler>)[REPORT_ERROR];
  if (typeof report === "function") report.call(handler, error, request);
  else process.stderr.write(`mcpkit: serving an HTTP request failed: ${String(error)}\n`);
}

/**
 * What a server knows of a request that a Web `Request` does not carry. mcpkit's Node
 * adapter passes it as the second argument of `fetch`; on another runtime, pass what it
 * gives (Deno's `info.remoteAddr.hostname`, Bun's `server.requestIP(request).address`).
 */
export interface FetchInfo {
  /** The IP address of the client's connection. */
  clientAddress?: string;
}

/** Anything with a Web-standard fetch handler (a Streamable HTTP handler, a router). */
export interface FetchHandler {
  fetch(request: Request, info?: FetchInfo): Promise<Response>;
}

export const canExchange = (handler: object): handler is ExchangeHandler =>
  typeof (handler as Partial<ExchangeHandler>)[EXCHANGE] === "function";

/** Serves `request` with `handler`, directly when it can, else through its fetch. */
export function exchange(handler: FetchHandler, request: HttpRequest): MaybeReply {
  if (canExchange(handler)) return handler[EXCHANGE](request);
  const address = request.remoteAddress;
  return handler
    .fetch(request.toRequest(), address === undefined ? undefined : { clientAddress: address })
    .then(replyFromResponse);
}

/** Reads a Web body up to `limit` bytes; undefined when it is larger. */
export async function readWebBody(request: Request, limit: number): Promise<string | undefined> {
  const declared = Number(request.headers.get("content-length") ?? Number.NaN);
  if (declared > limit) return undefined;
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      // Only discarding the body: a failed cancel leaves nothing to clean up.
      await reader.cancel().catch(() => {});
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, size).toString("utf8");
}

export function fromWebRequest(request: Request, info?: FetchInfo): HttpRequest {
  return {
    method: request.method,
    ...(info?.clientAddress !== undefined && { remoteAddress: info.clientAddress }),
    url: request.url,
    get path() {
      return new URL(request.url).pathname;
    },
    headers: request.headers,
    onAbort: (target) => request.signal.addEventListener("abort", () => target.aborted(), { once: true }),
    text: (limit) => readWebBody(request, limit),
    toRequest: () => request,
  };
}

export function toResponse(reply: HttpReply): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(reply.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, value);
  }
  return new Response(reply.body ?? null, { status: reply.status, headers });
}

export function replyFromResponse(response: Response): HttpReply {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const cookies = response.headers.getSetCookie?.();
  if (cookies && cookies.length > 0) headers["set-cookie"] = cookies;
  return { status: response.status, headers, ...(response.body && { body: response.body }) };
}

/** A JSON reply. */
export const jsonReply = (status: number, text: string, headers?: Record<string, string>): HttpReply => ({
  status,
  headers: headers ? { "content-type": "application/json", ...headers } : { "content-type": "application/json" },
  body: text,
});
