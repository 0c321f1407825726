import { type LookupAddress, lookup } from "node:dns";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP } from "node:net";
import { isLoopbackAddress, isSpecialAddress } from "./addresses.js";

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
 * GET `url` as JSON, defending against server-side request forgery: https only (http for
 * loopback in development), every address the name resolves to checked before connecting
 * and the connection made to a checked address (no second lookup to rebind), no redirects,
 * a size and a time limit. Node only.
 */
export async function guardedFetchJson(
  url: URL,
  limits: FetchLimits,
): Promise<{ body: unknown; maxAgeSec: number | undefined }> {
  const allowed = (address: string) =>
    limits.allowLoopback && isLoopbackAddress(address)
      ? true
      : limits.allowPrivateAddresses || !isSpecialAddress(address);
  if (url.protocol !== "https:" && !(url.protocol === "http:" && limits.allowLoopback))
    throw new FetchRefused(`${url.href} is not an https URL`);
  if (url.username || url.password) throw new FetchRefused(`${url.href} carries credentials`);
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (isIP(host) !== 0 && !allowed(host)) throw new FetchRefused(`${url.host} is a private or reserved address`);
  if (url.protocol === "http:" && !(isIP(host) !== 0 ? isLoopbackAddress(host) : host === "localhost"))
    throw new FetchRefused(`${url.href} is not an https URL`);

  const guardedLookup = (
    hostname: string,
    options: { all?: boolean; family?: number },
    callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, "");
      const refused = addresses.find((a) => !allowed(a.address));
      if (refused || addresses.length === 0)
        return callback(new FetchRefused(`${hostname} resolves to a private or reserved address`), "");
      if (options.all) return callback(null, addresses);
      const first = addresses[0] as LookupAddress;
      callback(null, first.address, first.family);
    });
  };

  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    const request = (url.protocol === "https:" ? httpsRequest : httpRequest)(url, {
      method: "GET",
      headers: { accept: "application/json", "user-agent": "mcpkit-authorization-server" },
      lookup: guardedLookup as never,
      signal: AbortSignal.timeout(limits.timeoutMs),
    });
    request.on("response", resolve);
    request.on("error", (error) =>
      reject(
        error instanceof FetchRefused
          ? error
          : error.name === "AbortError"
            ? new FetchRefused(`${url.href} did not answer within ${limits.timeoutMs} ms`)
            : new FetchRefused(`${url.href} could not be fetched: ${error.message}`),
      ),
    );
    request.end();
  });

  try {
    if (response.statusCode !== 200)
      throw new FetchRefused(
        response.statusCode && response.statusCode >= 300 && response.statusCode < 400
          ? `${url.href} redirects; client metadata documents are not followed through redirects`
          : `${url.href} answered HTTP ${response.statusCode}`,
      );
    if (Number(response.headers["content-length"] ?? 0) > limits.maxBytes)
      throw new FetchRefused(`${url.href} is larger than ${limits.maxBytes} bytes`);
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of response as AsyncIterable<Buffer>) {
        size += chunk.byteLength;
        if (size > limits.maxBytes) throw new FetchRefused(`${url.href} is larger than ${limits.maxBytes} bytes`);
        chunks.push(chunk);
      }
    } catch (error) {
      if (error instanceof FetchRefused) throw error;
      throw new FetchRefused(`${url.href} did not answer within ${limits.timeoutMs} ms`);
    }
    let body: unknown;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    } catch {
      throw new FetchRefused(`${url.href} is not JSON`);
    }
    const maxAge = /(?:^|,)\s*max-age=(\d+)/i.exec(String(response.headers["cache-control"] ?? ""))?.[1];
    const noStore = /no-store|no-cache/i.test(String(response.headers["cache-control"] ?? ""));
    return { body, maxAgeSec: noStore ? 0 : maxAge === undefined ? undefined : Number(maxAge) };
  } finally {
    response.destroy();
  }
}
