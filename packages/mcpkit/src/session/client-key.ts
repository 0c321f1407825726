/**
 * Who a caller is, for limits that must not be reset by opening another session: the
 * principal when there is one, else the network address, an IPv6 address by its /64
 * (which one host is usually given whole). Session caps, rate limits and task bounds
 * all count under this key.
 */
export function clientKey(principal: string | undefined, address: string | undefined): string | undefined {
  if (principal !== undefined) return `principal:${principal}`;
  if (address === undefined) return undefined;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return `address:${mapped[1]}`;
  return `address:${address.includes(":") ? ipv6Prefix64(address) : address}`;
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
