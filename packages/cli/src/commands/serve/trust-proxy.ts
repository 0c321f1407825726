import type { TrustProxy } from "mcpkit/http";
import { UsageError } from "../usage-error.js";

/**
 * --trust-proxy: the reverse proxies (addresses, CIDR ranges, loopback or private) whose
 * X-Forwarded-For names the client, comma-separated or repeated. Checked before anything
 * starts; the HTTP endpoint is loaded only when the flag is given.
 */
export async function trustProxyFlag(
  given: string[] | undefined,
  port: string | undefined,
): Promise<TrustProxy | undefined> {
  if (given === undefined) return undefined;
  if (port === undefined) throw new UsageError("--trust-proxy applies to HTTP only: add --port");
  const proxies = given.flatMap((value) => value.split(",")).map((value) => value.trim());
  const trust: TrustProxy = { proxies: proxies.filter(Boolean) };
  const { clientAddressResolver } = await import("mcpkit/http");
  try {
    clientAddressResolver(trust);
  } catch (error) {
    throw new UsageError(`--trust-proxy: ${(error as Error).message.replace(/^trustProxy\.proxies: /, "")}`);
  }
  return trust;
}
