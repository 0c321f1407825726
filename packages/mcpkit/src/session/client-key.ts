import { addressKey } from "../transports/http/client-address.js";

/**
 * Who a caller is, for limits that must not be reset by opening another session: the
 * principal when there is one, else the network address (an IPv6 address by its /64:
 * client-address.ts). Session caps, rate limits and task bounds all count under this key.
 */
export function clientKey(principal: string | undefined, address: string | undefined): string | undefined {
  if (principal !== undefined) return `principal:${principal}`;
  return address === undefined ? undefined : `address:${addressKey(address)}`;
}
