import { type AddressPolicy, checkHost, FetchFailed } from "../../../address-guard/lookup.js";
import { guardedRequest } from "../../../address-guard/request.js";
import { isLoopbackAddress } from "./addresses.js";

/** What a fetch made on a client's say-so may reach, and how much it may take. */
export interface FetchLimits {
  /** Accept http:// and loopback addresses (development on one machine; never in production). */
  allowLoopback: boolean;
  /** Accept private and other special-purpose addresses (an internal deployment whose clients publish there). */
  allowPrivateAddresses: boolean;
  /** The largest body accepted, bytes. */
  maxBytes: number;
  /** The whole fetch, connect to last byte, ms. */
  timeoutMs: number;
}

/** The fetch was refused before or while it was made: the message says why, for the person who configured the client. */
export class FetchRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = "FetchRefused";
  }
}

/**
 * GET `url` as JSON, defending against server-side request forgery through the one address
 * guard (address-guard/): https only (http for loopback in development), every address the
 * name resolves to judged before connecting and the connection made to a judged address (no
 * second lookup to rebind), no redirects, a size and a time limit. Node only.
 */
export async function guardedFetchJson(
  url: URL,
  limits: FetchLimits,
): Promise<{ body: unknown; maxAgeSec: number | undefined }> {
  const policy: AddressPolicy = { allowLoopback: limits.allowLoopback, allowPrivate: limits.allowPrivateAddresses };
  if (url.protocol !== "https:" && !(url.protocol === "http:" && limits.allowLoopback))
    throw new FetchRefused(`${url.href} is not an https URL`);
  if (url.username || url.password) throw new FetchRefused(`${url.href} carries credentials`);
  const host = url.hostname.replace(/^\[|\]$/g, "");
  let answer: Awaited<ReturnType<typeof guardedRequest>>;
  try {
    checkHost(url.hostname, policy);
    if (url.protocol === "http:" && !(host === "localhost" || isLoopbackAddress(host)))
      throw new FetchRefused(`${url.href} is not an https URL`);
    answer = await guardedRequest(url, {
      policy,
      headers: { accept: "application/json", "user-agent": "mcpkit-authorization-server" },
      redirects: "manual",
      maxBytes: limits.maxBytes,
      timeoutMs: limits.timeoutMs,
    });
  } catch (error) {
    if (error instanceof FetchFailed) throw new FetchRefused(error.message);
    throw error;
  }
  if (answer.status !== 200)
    throw new FetchRefused(
      answer.status >= 300 && answer.status < 400
        ? `${url.href} redirects; client metadata documents are not followed through redirects`
        : `${url.href} answered HTTP ${answer.status}`,
    );
  let body: unknown;
  try {
    body = JSON.parse(answer.body.toString("utf8"));
  } catch {
    throw new FetchRefused(`${url.href} is not JSON`);
  }
  const cacheControl = answer.headers.get("cache-control") ?? "";
  const maxAge = /(?:^|,)\s*max-age=(\d+)/i.exec(cacheControl)?.[1];
  const noStore = /no-store|no-cache/i.test(cacheControl);
  return { body, maxAgeSec: noStore ? 0 : maxAge === undefined ? undefined : Number(maxAge) };
}
