import type { AddressPolicy } from "./lookup.js";
import { guardedRequest } from "./request.js";

export interface GuardedFetchOptions {
  policy?: AddressPolicy;
  /** Hops the operator named, reached without the address check. */
  trusted?: (url: URL) => boolean;
  /** The largest body read, bytes. */
  maxBytes: number;
  /** Each exchange, ms, when the caller passes no signal of its own. */
  timeoutMs: number;
}

// Fetch's null-body statuses: a Response with one of these cannot carry a body.
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/**
 * A `fetch` for a library that takes one (oauth4webapi's `customFetch`), whose requests go
 * through `guardedRequest`: bodies as strings, URLSearchParams or bytes; `redirect:
 * "manual"` honoured, `follow` follows up to 5 hops, each judged.
 */
export function guardedFetch(options: GuardedFetchOptions): typeof fetch {
  return async (input: string | URL | Request, init: RequestInit = {}) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const body = init.body;
    if (
      !(body === undefined || body === null || typeof body === "string" || body instanceof URLSearchParams) &&
      !(body instanceof Uint8Array)
    )
      throw new TypeError("This fetch sends string, URLSearchParams or byte bodies only");
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, name) => {
      headers[name] = value;
    });
    if (body instanceof URLSearchParams && !("content-type" in headers))
      headers["content-type"] = "application/x-www-form-urlencoded;charset=UTF-8";
    const answer = await guardedRequest(url, {
      ...(options.policy && { policy: options.policy }),
      ...(options.trusted && { trusted: options.trusted }),
      method: init.method ?? "GET",
      headers,
      ...(body !== undefined && body !== null && { body: body instanceof Uint8Array ? body : String(body) }),
      redirects: init.redirect === "follow" || init.redirect === undefined ? 5 : "manual",
      maxBytes: options.maxBytes,
      timeoutMs: options.timeoutMs,
      ...(init.signal && { signal: init.signal }),
    });
    if (init.redirect === "error" && answer.status >= 300 && answer.status < 400)
      throw new TypeError(`${url.href} redirects, and this request allows none`);
    return new Response(NULL_BODY.has(answer.status) ? null : new Uint8Array(answer.body), {
      status: answer.status,
      statusText: answer.statusText,
      headers: answer.headers,
    });
  };
}
