import { parseIp } from "../../../address-guard/ip.js";
import { isLoopback, specialRange } from "../../../address-guard/ranges.js";

/**
 * Addresses a server must not be made to fetch from on a client's say-so (SSRF). The ranges
 * and the decoding of every spelling live in the one address guard (address-guard/), which
 * every fetch a document, a client or a server's answer causes goes through.
 */

/** A loopback address in any spelling, IPv6 forms that embed 127.0.0.0/8 included. */
export function isLoopbackAddress(address: string): boolean {
  const bytes = parseIp(address);
  return bytes !== undefined && isLoopback(bytes);
}

/** True for an address that is not global unicast (loopback included), or one that is not an IP address. */
export function isSpecialAddress(address: string): boolean {
  const bytes = parseIp(address);
  return bytes === undefined || specialRange(bytes) !== undefined;
}
