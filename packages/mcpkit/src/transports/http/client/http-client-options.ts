import { DEFAULT_MAX_MESSAGE_BYTES } from "../../transport.js";
import { guardRedirects, type RedirectPolicy } from "./redirects.js";

/** Extra request headers: fixed, or computed before every request (for credentials that change). */
export type HeaderSource = Record<string, string> | (() => Record<string, string> | Promise<Record<string, string>>);

/** The subset of `fetch` the HTTP client transports use, so tests and proxies can supply their own. */
export type FetchLike = (input: string | URL, init: RequestInit) => Promise<Response>;

/**
 * How a dropped SSE stream is resumed (transports §Resumability and Redelivery). The server's
 * `retry` field, when sent, replaces `initialDelayMs`; attempts that bring nothing back wait
 * longer each time, and after `maxRetries` of them in a row the stream is given up.
 */
export interface ReconnectOptions {
  /** Wait before reconnecting when the server sent no `retry` field (default 1000 ms). */
  initialDelayMs?: number;
  /** The longest wait between attempts (default 30 000 ms). */
  maxDelayMs?: number;
  /** Each fruitless attempt multiplies the wait by this (default 1.5). */
  growFactor?: number;
  /** Fruitless attempts in a row before giving up (default 5). */
  maxRetries?: number;
}

export interface HttpClientOptions {
  /** Added to every request (e.g. Authorization); the protocol's own headers take precedence. */
  headers?: HeaderSource;
  /** The fetch to use (default globalThis.fetch). */
  fetch?: FetchLike;
  /**
   * Authorization (basic/authorization): every request goes through this fetch, which adds
   * the bearer token, authorizes on 401 and steps up on 403. Pass an OAuthClient from
   * "mcpkit/auth"; its own `fetch` option is the one that reaches the network.
   */
  auth?: { fetch: FetchLike };
  /** The largest message accepted from the server, in bytes (default 16 MiB). */
  maxMessageBytes?: number;
  /**
   * HTTP redirects: "same-origin" (default) follows those within the server's origin and
   * fails a request redirected to another; "any" follows those too, taking only the
   * protocol's own headers there (never `headers` or the `auth` token).
   */
  redirects?: RedirectPolicy;
  /** Failures no request can be blamed for (a notification the server refused, a lost GET stream). */
  onError?: (error: Error) => void;
}

export interface StreamableHttpClientOptions extends HttpClientOptions {
  /**
   * When the first POST (the initialize request) fails with 400, 404 or 405, try the
   * 2024-11-05 HTTP+SSE transport at the same URL (transports §Backwards Compatibility).
   * Default true.
   */
  legacyFallback?: boolean;
  /** Open the GET stream for server-initiated messages once initialized (default true). */
  standaloneStream?: boolean;
  reconnect?: ReconnectOptions;
}

export interface ResolvedHttpOptions {
  headers: HeaderSource | undefined;
  fetch: FetchLike;
  maxMessageBytes: number;
  onError: (error: Error) => void;
}

export function resolveHttpOptions(options: HttpClientOptions | undefined): ResolvedHttpOptions {
  const plain: FetchLike = options?.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const fetchImpl = options?.auth?.fetch ?? plain;
  return {
    headers: options?.headers,
    fetch: guardRedirects(fetchImpl, plain, options?.redirects ?? "same-origin"),
    maxMessageBytes: options?.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES,
    onError: options?.onError ?? (() => {}),
  };
}

export function resolveReconnect(options: ReconnectOptions | undefined): Required<ReconnectOptions> {
  return {
    initialDelayMs: options?.initialDelayMs ?? 1000,
    maxDelayMs: options?.maxDelayMs ?? 30_000,
    growFactor: options?.growFactor ?? 1.5,
    maxRetries: options?.maxRetries ?? 5,
  };
}

/** The user's headers first, then `own` on top: credentials are the caller's, the protocol's are ours. */
export async function buildHeaders(source: HeaderSource | undefined, own: Record<string, string>): Promise<Headers> {
  const extra = typeof source === "function" ? await source() : source;
  const headers = new Headers(extra);
  for (const [name, value] of Object.entries(own)) headers.set(name, value);
  return headers;
}
