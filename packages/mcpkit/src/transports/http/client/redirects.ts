/** The fetch the transports use (options.ts's FetchLike, which is made of this). */
type FetchLike = (input: string | URL, init: RequestInit) => Promise<Response>;

/** Where HTTP redirects are followed: the same origin only (the default), or anywhere. */
export type RedirectPolicy = "same-origin" | "any";

/** Hops one request may take before it is given up (fetch's own limit is 20). */
const MAX_HOPS = 5;

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/**
 * The headers the protocol itself sets: the only ones a request takes to another origin.
 * The caller's own (an API key, a cookie, Authorization) belong to the origin they were given for.
 */
const PROTOCOL_HEADER =
  /^(accept|content-type|last-event-id|mcp-session-id|mcp-protocol-version|mcp-method|mcp-name|mcp-param-.+)$/i;

/** A redirect the policy does not allow. */
export class RedirectRefusedError extends Error {
  constructor(from: URL, to: URL) {
    super(
      `the server redirected to another origin (${to.origin}), which is not followed: the request's headers are for ${from.origin}. Use the new address, or allow redirects to other origins`,
    );
    this.name = "RedirectRefusedError";
  }
}

/**
 * A fetch that follows redirects itself (fetch's own would take every header along, to any
 * origin): within the origin always, through `fetch`; to another origin only under "any",
 * and then through `plain` (no credentials of an auth layer) with the protocol's headers alone.
 */
export function guardRedirects(fetch: FetchLike, plain: FetchLike, policy: RedirectPolicy): FetchLike {
  return async (input, init) => {
    let url = new URL(String(input));
    const origin = url.origin;
    let request: RequestInit = { ...init, redirect: "manual" };
    for (let hop = 0; ; hop++) {
      const foreign = url.origin !== origin;
      const response = await (foreign ? plain : fetch)(url, request);
      const location = response.headers.get("location");
      if (!REDIRECT_STATUSES.has(response.status) || location === null) return response;
      await response.body?.cancel().catch(() => {});
      const next = new URL(location, url);
      if (hop >= MAX_HOPS) throw new TypeError(`too many redirects (more than ${MAX_HOPS}), the last to ${next.href}`);
      if (next.origin !== origin && policy !== "any") throw new RedirectRefusedError(url, next);
      // fetch §HTTP-redirect fetch: 303, and 301/302 after a POST, continue as a GET without a body.
      const method = (request.method ?? "GET").toUpperCase();
      if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === "POST"))
        request = { ...request, method: "GET", body: null };
      if (next.origin !== origin) request = { ...request, headers: protocolHeaders(request.headers) };
      url = next;
    }
  };
}

function protocolHeaders(headers: RequestInit["headers"]): Headers {
  const kept = new Headers();
  for (const [name, value] of new Headers(headers)) if (PROTOCOL_HEADER.test(name)) kept.set(name, value);
  return kept;
}
