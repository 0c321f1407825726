import type { ApiRequest } from "./request.js";

export interface CallLimits {
  /** For the whole exchange, redirects and body included, ms. */
  timeoutMs: number;
  /** The most body bytes read; a larger answer is refused. */
  maxResponseBytes: number;
  /** Redirects followed while they stay under the base URL; one leaving it is never followed. */
  maxRedirects: number;
}

export interface ApiResponse {
  status: number;
  statusText: string;
  headers: Headers;
  body: Uint8Array;
  url: string;
}

/** A call that failed before the API answered in full: said to the model as a tool error. */
export class CallError extends Error {
  override name = "CallError";
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * Where a redirect may lead: the base URL's origin, under its path (`servers[].url`'s path is
 * part of what the operator named: an API at /v2 cannot send its caller, credentials and
 * all, to /admin of the same host), with no segment that decodes to a dot segment or holds
 * an encoded slash.
 */
export function redirectProblem(next: URL, base: URL): string | undefined {
  if (next.origin !== base.origin) return `The API redirected to another origin (${next.origin}); not followed`;
  const basePath = base.pathname.replace(/\/+$/, "");
  const under = next.pathname === basePath || next.pathname.startsWith(`${basePath}/`);
  const segments = next.pathname.split("/").map((s) => {
    try {
      return decodeURIComponent(s);
    } catch {
      return s;
    }
  });
  if (!under || segments.some((s) => s === "." || s === ".." || /[/\\]/.test(s)))
    return `The API redirected outside its base URL (${basePath}/); not followed`;
  return undefined;
}

/**
 * Sends one request with the limits: the timeout covers redirects and the body; the body
 * is read up to `maxResponseBytes`; redirects are followed by hand, and only while they
 * stay under the base URL (credentials must not travel anywhere the API names).
 */
export async function send(
  fetchImpl: typeof fetch,
  request: ApiRequest,
  limits: CallLimits,
  cancel: AbortSignal,
  base: URL,
): Promise<ApiResponse> {
  const timeout = AbortSignal.timeout(limits.timeoutMs);
  const signal = AbortSignal.any([cancel, timeout]);
  const fail = (error: unknown): never => {
    if (error instanceof CallError) throw error;
    if (timeout.aborted) throw new CallError(`The API did not answer within ${limits.timeoutMs} ms`);
    if (cancel.aborted) throw cancel.reason ?? error;
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new CallError(`Cannot reach the API: ${cause?.code ?? cause?.message ?? (error as Error).message}`);
  };
  let { url, method, body } = request;
  try {
    for (let hops = 0; ; hops++) {
      const response = await fetchImpl(url, { method, headers: request.headers, body, redirect: "manual", signal });
      const location = response.headers.get("location");
      if (!REDIRECTS.has(response.status) || location === null) {
        return {
          status: response.status,
          statusText: response.statusText,
          headers: response.headers,
          body: await readLimited(response, limits.maxResponseBytes),
          url: url.href,
        };
      }
      await response.body?.cancel();
      const next = new URL(location, url);
      const problem = redirectProblem(next, base);
      if (problem) throw new CallError(problem);
      if (hops >= limits.maxRedirects) throw new CallError(`More than ${limits.maxRedirects} redirects`);
      // RFC 9110 §15.4: 303 (and, as browsers do, 301/302 after POST) continue with GET.
      if (response.status === 303 || (method === "POST" && response.status <= 302)) {
        method = method === "HEAD" ? "HEAD" : "GET";
        body = undefined;
        request.headers.delete("content-type");
      }
      url = next;
    }
  } catch (error) {
    return fail(error);
  }
}

async function readLimited(response: Response, max: number): Promise<Uint8Array> {
  const declared = Number(response.headers.get("content-length"));
  if (declared > max) {
    await response.body?.cancel();
    throw new CallError(`The API's answer is larger than the limit (${declared} > ${max} bytes)`);
  }
  if (!response.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > max) {
      await reader.cancel();
      throw new CallError(`The API's answer is larger than the limit (${max} bytes)`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}
