import { BlockList, isIP } from "node:net";

/**
 * Addresses a server must not be made to fetch from on a client's say-so (SSRF): this
 * machine, private networks, link-local (cloud metadata at 169.254.169.254), carrier-grade
 * NAT, documentation, benchmarking, multicast and reserved ranges, and the IPv6
 * equivalents and transition prefixes that can embed them (RFC 6890 special-purpose registries).
 */
const SPECIAL = new BlockList();
for (const [net, bits] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const)
  SPECIAL.addSubnet(net, bits, "ipv4");
for (const [net, bits] of [
  ["::", 128],
  ["::1", 128],
  ["::ffff:0:0", 96],
  ["64:ff9b::", 96],
  ["64:ff9b:1::", 48],
  ["100::", 64],
  ["2001::", 23],
  ["2001:db8::", 32],
  ["2002::", 16],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const)
  SPECIAL.addSubnet(net, bits, "ipv6");

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet("127.0.0.0", 8, "ipv4");
LOOPBACK.addAddress("::1", "ipv6");

/** An IPv4-mapped IPv6 address (::ffff:10.0.0.1) as the IPv4 address it is. */
function unmapped(address: string): { address: string; type: "ipv4" | "ipv6" } | undefined {
  const bare = address.replace(/^\[|\]$/g, "");
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare);
  if (mapped) return { address: mapped[1] as string, type: "ipv4" };
  const version = isIP(bare);
  return version === 0 ? undefined : { address: bare, type: version === 4 ? "ipv4" : "ipv6" };
}

export function isLoopbackAddress(address: string): boolean {
  const ip = unmapped(address);
  return ip !== undefined && LOOPBACK.check(ip.address, ip.type);
}

/** True for an address in any special-purpose range (loopback included), or one that is not an IP address. */
export function isSpecialAddress(address: string): boolean {
  const ip = unmapped(address);
  return ip === undefined || SPECIAL.check(ip.address, ip.type);
}
