import { BlockList, isIP } from "node:net";
import type { HeaderReader } from "../transport.js";

/**
 * Reverse proxies of yours whose word on the client's address is taken (off by default:
 * without it the client is the connection's peer). Behind nginx every connection comes
 * from nginx: session caps, rate limits and the authorization server's limits would count
 * every caller as one.
 */
export interface TrustProxy {
  /**
   * The proxies: IP addresses, CIDR ranges (`10.0.0.0/8`, `fd00::/8`), `loopback`
   * (127.0.0.0/8, ::1) or `private` (10/8, 172.16/12, 192.168/16, fc00::/7). The header is
   * read only from a connection whose peer is one of them, and only as far back as the
   * addresses it lists are theirs: the client's address is the nearest one that is not.
   */
  proxies: readonly string[];
  /**
   * The header the proxies set (default `x-forwarded-for`): a comma-separated list to which
   * each proxy appends the address it saw (nginx: `proxy_set_header X-Forwarded-For
   * $proxy_add_x_forwarded_for`). A header holding one address (`x-real-ip`) works too.
   */
  header?: string;
}

/** RFC 9110 §5.1: a field name is a token (Web `Headers` throws on any other). */
export const isHeaderName = (name: string) => /^[!#$%&'*+.^`|~\w-]+$/.test(name);

/** The client's address as a request's peer and headers give it; undefined when the peer is unknown. */
export type ClientAddressOf = (peer: string | undefined, headers: HeaderReader) => string | undefined;

const RANGES: Record<string, string[]> = {
  loopback: ["127.0.0.0/8", "::1/128"],
  private: ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7"],
};

/** An IPv4-mapped IPv6 address (what a dual-stack socket reports) as the IPv4 address it is. */
const plain = (address: string) => /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1] ?? address;

const family = (address: string) => (isIP(address) === 6 ? "ipv6" : "ipv4");

function trustedSet(proxies: readonly string[]): BlockList {
  if (proxies.length === 0) throw new TypeError("trustProxy.proxies: name at least one proxy address or range");
  const list = new BlockList();
  for (const given of proxies.flatMap((p) => RANGES[p.trim()] ?? [p.trim()])) {
    const [address = "", prefix] = given.split("/");
    const ip = plain(address);
    const bits = prefix === undefined ? undefined : Number(prefix);
    const max = isIP(ip) === 6 ? 128 : 32;
    if (!isIP(ip) || (bits !== undefined && !(Number.isInteger(bits) && bits >= 0 && bits <= max)))
      throw new TypeError(
        `trustProxy.proxies: "${given}" is neither an IP address, a CIDR range (10.0.0.0/8) nor loopback or private`,
      );
    if (bits === undefined) list.addAddress(ip, family(ip));
    else list.addSubnet(ip, bits, family(ip));
  }
  return list;
}

/**
 * How the client's address is found behind trusted proxies, as express's `trust proxy`
 * does with a list: start from the connection's peer; while that address is a trusted
 * proxy, step to the address it says it saw (the header's last entry not yet taken). The
 * first address that is not a trusted proxy is the client. A peer that is not trusted is
 * the client whatever it sends, so a caller reaching the server directly cannot choose
 * its own address; an entry that is not an IP address ends the walk at the proxy that
 * passed it on.
 */
export function clientAddressResolver(trust: TrustProxy): ClientAddressOf {
  const trusted = trustedSet(trust.proxies);
  const header = (trust.header ?? "x-forwarded-for").toLowerCase();
  if (!isHeaderName(header))
    throw new TypeError(`trustProxy.header must be a header name such as x-forwarded-for, not "${trust.header}"`);
  const isTrusted = (address: string) => trusted.check(address, family(address));
  return (peer, headers) => {
    if (peer === undefined) return undefined;
    let current = plain(peer);
    if (!isIP(current) || !isTrusted(current)) return peer;
    const hops = headers.get(header)?.split(",") ?? [];
    for (let i = hops.length - 1; i >= 0; i--) {
      const next = plain((hops[i] as string).trim());
      if (!isIP(next)) break;
      current = next;
      if (!isTrusted(current)) break;
    }
    return current;
  };
}
