import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { type AddressPolicy, checkHost, FetchFailed, guardedLookup } from "./lookup.js";

export interface GuardedRequestOptions {
  /** What an untrusted hop may reach besides global unicast addresses (default: nothing else). */
  policy?: AddressPolicy;
  /**
   * Hops the operator named (the document URL's origin, an issuer): reached without the
   * address check, as configured. Every other hop is judged (default: none trusted).
   */
  trusted?: (url: URL) => boolean;
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** Redirects followed, each hop judged afresh; "manual": a redirect is the answer. */
  redirects: number | "manual";
  /** The largest body read, bytes. */
  maxBytes: number;
  /** The whole exchange, redirects included, ms. */
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface GuardedResponse {
  status: number;
  statusText: string;
  headers: Headers;
  body: Buffer;
  /** The URL that answered (after redirects). */
  url: URL;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * One HTTP exchange made on a document's, a client's or a server's say-so (server-side
 * request forgery is the threat): each hop not `trusted` may reach only what the policy
 * allows, judged on the resolved addresses, and connects to the very address judged;
 * redirects are followed by hand, each hop judged again, and credentials never follow a
 * redirect to another origin. No connection is shared with other requests (a pooled
 * socket could have been opened unguarded). Node only.
 */
export async function guardedRequest(start: URL, options: GuardedRequestOptions): Promise<GuardedResponse> {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  let url = start;
  let method = options.method ?? "GET";
  let body = options.body;
  const headers = { ...options.headers };
  try {
    for (let hops = 0; ; hops++) {
      const response = await exchange(url, method, headers, body, options, signal);
      const location = response.headers.location;
      if (options.redirects === "manual" || !REDIRECTS.has(response.statusCode ?? 0) || !location)
        return { ...(await read(response, url, options.maxBytes)), url };
      response.destroy();
      if (hops >= options.redirects)
        throw new FetchFailed(`${start.href} redirects more than ${options.redirects} times`);
      const next = new URL(location, url);
      if (next.origin !== url.origin)
        for (const name of Object.keys(headers))
          if (/^(authorization|cookie|proxy-authorization)$/i.test(name)) delete headers[name];
      // RFC 9110 §15.4: a 303, and a 301/302 after POST, continue with GET.
      if (response.statusCode === 303 || (method === "POST" && (response.statusCode ?? 0) <= 302)) {
        method = method === "HEAD" ? "HEAD" : "GET";
        body = undefined;
      }
      url = next;
    }
  } catch (error) {
    if (error instanceof FetchFailed) throw error;
    if (timeout.aborted) throw new FetchFailed(`${url.href} did not answer within ${options.timeoutMs} ms`);
    if (options.signal?.aborted) throw options.signal.reason ?? error;
    const code = (error as { code?: string }).code;
    throw new FetchFailed(`${url.href} could not be fetched: ${code ?? (error as Error).message}`, { cause: error });
  }
}

function exchange(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: string | Uint8Array | undefined,
  options: GuardedRequestOptions,
  signal: AbortSignal,
): Promise<IncomingMessage> {
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new FetchFailed(`${url.href} is not an http(s) URL`);
  const policy = options.policy ?? {};
  const trusted = options.trusted?.(url) === true;
  if (!trusted) checkHost(url.hostname, policy);
  return new Promise<IncomingMessage>((resolve, reject) => {
    const request = (url.protocol === "https:" ? httpsRequest : httpRequest)(url, {
      method,
      headers,
      agent: false,
      signal,
      ...(!trusted && { lookup: guardedLookup(policy) as never }),
    });
    request.on("response", resolve);
    request.on("error", reject);
    request.end(body);
  });
}

async function read(response: IncomingMessage, url: URL, maxBytes: number): Promise<Omit<GuardedResponse, "url">> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(response.headers))
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, one);
  try {
    if (Number(response.headers["content-length"] ?? 0) > maxBytes)
      throw new FetchFailed(`${url.href} is larger than ${maxBytes} bytes`);
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response as AsyncIterable<Buffer>) {
      size += chunk.byteLength;
      if (size > maxBytes) throw new FetchFailed(`${url.href} is larger than ${maxBytes} bytes`);
      chunks.push(chunk);
    }
    return {
      status: response.statusCode ?? 0,
      statusText: response.statusMessage ?? "",
      headers,
      body: Buffer.concat(chunks),
    };
  } finally {
    response.destroy();
  }
}
