/**
 * The key a client is counted under by its IP address (per-client limits): an IPv4 address
 * as it is, an IPv4-mapped IPv6 address (::ffff:10.0.0.1, what a dual-stack socket reports)
 * as the IPv4 address it is, and any other IPv6 address by its /64, which one host is
 * usually given whole (RFC 7421 §1), so that it cannot count as 2^64 clients.
 */
export function addressKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1] as string;
  return address.includes(":") ? ipv6Prefix64(address) : address;
}

/** The first four groups of an IPv6 address, expanded ("2001:db8::1" → "2001:db8:0:0::/64"). */
function ipv6Prefix64(address: string): string {
  const bare = address.split("%")[0] as string; // a zone index names the interface, not the host
  const [head = "", tail] = bare.split("::");
  const left = head === "" ? [] : head.split(":");
  const right = tail === undefined || tail === "" ? [] : tail.split(":");
  const groups = tail === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill("0"), ...right];
  return `${groups
    .slice(0, 4)
    .map((g) => (Number.parseInt(g, 16) || 0).toString(16))
    .join(":")}::/64`;
}
