import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { formatIp, parseIp } from "./ip.js";
import { isLoopback, specialRange } from "./ranges.js";

/** What a fetch made on someone else's say-so may reach besides global unicast addresses. */
export interface AddressPolicy {
  /** Loopback addresses too (development on one machine). */
  allowLoopback?: boolean;
  /** Every address: private and other special-purpose ones too (an internal deployment). */
  allowPrivate?: boolean;
  /** Resolves host names (default `dns.lookup`); every address it answers is judged. */
  lookup?: Resolver;
}

/** `dns.lookup` with `all: true`, the shape a resolver is given. */
export type Resolver = (
  hostname: string,
  options: { all: true; family?: number; hints?: number },
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

/** A fetch refused, or failed, for a reason the message gives (for the person who configured it). */
export class FetchFailed extends Error {
  override name = "FetchFailed";
}

/** The address a host is, or resolves to, may not be reached. */
export class AddressRefused extends FetchFailed {
  override name = "AddressRefused";
}

/** Why `address` (any spelling) may not be reached under `policy`; undefined when it may. */
export function addressRefusal(address: string, policy: AddressPolicy): string | undefined {
  const bytes = parseIp(address);
  if (!bytes) return `${address} is not an IP address`;
  if (policy.allowPrivate || (policy.allowLoopback && isLoopback(bytes))) return undefined;
  const range = specialRange(bytes);
  return range && `${formatIp(bytes)} (${range})`;
}

/**
 * A URL's host judged before connecting: an address literal as it stands (a connection to
 * one makes no lookup); a name is judged by what it resolves to (`guardedLookup`).
 */
export function checkHost(hostname: string, policy: AddressPolicy): void {
  if (!parseIp(hostname)) return;
  const why = addressRefusal(hostname, policy);
  if (why) throw new AddressRefused(`${hostname} is a private or reserved address: ${why}`);
}

type LookupCallback = (error: Error | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for `http.request` and `net.connect`: resolves every address of the name,
 * refuses the connection unless each one may be reached, and hands the connection the
 * very addresses it judged, so nothing resolves the name a second time (DNS rebinding).
 */
export function guardedLookup(policy: AddressPolicy) {
  const resolve: Resolver = policy.lookup ?? (dnsLookup as unknown as Resolver);
  return (hostname: string, options: { all?: boolean; family?: number; hints?: number }, callback: LookupCallback) => {
    const family = options.family === 4 || options.family === 6 ? options.family : undefined;
    resolve(hostname, { all: true, ...(family && { family }) }, (error, addresses) => {
      if (error) return callback(error, "");
      if (addresses.length === 0) return callback(new FetchFailed(`${hostname} resolves to no address`), "");
      for (const { address } of addresses) {
        const why = addressRefusal(address, policy);
        if (why)
          return callback(new AddressRefused(`${hostname} resolves to a private or reserved address: ${why}`), "");
      }
      if (options.all) return callback(null, addresses);
      const first = addresses[0] as LookupAddress;
      callback(null, first.address, first.family);
    });
  };
}
