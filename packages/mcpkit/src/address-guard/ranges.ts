import { formatIp, type IpBytes } from "./ip.js";

/**
 * Which addresses are global unicast: not in the IANA IPv4 and IPv6 Special-Purpose
 * Address Registries (RFC 6890 and the RFCs since), not multicast or reserved, and for
 * IPv6 inside 2000::/3. An IPv6 address that embeds an IPv4 one (mapped, compatible,
 * SIIT-translated, NAT64, 6to4, Teredo) is judged by the IPv4 address it carries, so
 * `::ffff:127.0.0.1`, `::7f00:1` and `64:ff9b::a00:1` are what they embed.
 */

interface Range {
  prefix: IpBytes;
  bits: number;
  name: string;
}

const v4 = (text: string, bits: number, name: string): Range => ({
  prefix: Uint8Array.from(text.split(".").map(Number)),
  bits,
  name,
});

const IPV4: readonly Range[] = [
  v4("0.0.0.0", 8, "this network"),
  v4("10.0.0.0", 8, "private"),
  v4("100.64.0.0", 10, "shared address space (carrier-grade NAT)"),
  v4("127.0.0.0", 8, "loopback"),
  v4("169.254.0.0", 16, "link-local"),
  v4("172.16.0.0", 12, "private"),
  v4("192.0.0.0", 24, "IETF protocol assignments"),
  v4("192.0.2.0", 24, "documentation"),
  v4("192.31.196.0", 24, "AS112"),
  v4("192.52.193.0", 24, "AMT"),
  v4("192.88.99.0", 24, "6to4 relay anycast"),
  v4("192.168.0.0", 16, "private"),
  v4("192.175.48.0", 24, "AS112 direct delegation"),
  v4("198.18.0.0", 15, "benchmarking"),
  v4("198.51.100.0", 24, "documentation"),
  v4("203.0.113.0", 24, "documentation"),
  v4("224.0.0.0", 4, "multicast"),
  v4("240.0.0.0", 4, "reserved"),
];

const v6 = (groups: number[], bits: number, name: string): Range => {
  const prefix = new Uint8Array(16);
  groups.forEach((g, i) => {
    prefix[2 * i] = g >> 8;
    prefix[2 * i + 1] = g & 0xff;
  });
  return { prefix, bits, name };
};

/** IPv6 ranges refused whole (the ones that embed IPv4 are decoded before these are looked at). */
const IPV6: readonly Range[] = [
  v6([0x64, 0xff9b, 1], 48, "local-use IPv4/IPv6 translation"),
  v6([0x100], 64, "discard-only"),
  v6([0x100, 0, 0, 1], 64, "dummy prefix"),
  v6([0x2001, 0xdb8], 32, "documentation"),
  v6([0x2001], 23, "IETF protocol assignments"),
  v6([0x2620, 0x4f, 0x8000], 48, "AS112 direct delegation"),
  v6([0x3fff], 20, "documentation"),
  v6([0x5f00], 16, "SRv6 SIDs"),
  v6([0xfc00], 7, "unique local"),
  v6([0xfe80], 10, "link-local"),
  v6([0xfec0], 10, "site-local"),
  v6([0xff00], 8, "multicast"),
];

function within(bytes: IpBytes, range: Range): boolean {
  if (bytes.length !== range.prefix.length) return false;
  const whole = range.bits >> 3;
  for (let i = 0; i < whole; i++) if (bytes[i] !== range.prefix[i]) return false;
  const rest = range.bits & 7;
  if (rest === 0) return true;
  const mask = (0xff << (8 - rest)) & 0xff;
  return ((bytes[whole] as number) & mask) === ((range.prefix[whole] as number) & mask);
}

const show = (r: Range) => `${formatIp(r.prefix)}/${r.bits}`;
const zero = (bytes: IpBytes, from: number, to: number) => bytes.subarray(from, to).every((b) => b === 0);

/** Why an address is not global unicast (the range it falls in), or undefined when it is. */
export function specialRange(bytes: IpBytes): string | undefined {
  if (bytes.length === 4) {
    const range = IPV4.find((r) => within(bytes, r));
    return range && `${range.name}, ${show(range)}`;
  }
  const embedded = embeddedIpv4(bytes);
  if (embedded) {
    const inner = specialRange(embedded.ipv4);
    return inner && `${embedded.form} ${formatIp(embedded.ipv4)}: ${inner}`;
  }
  if (zero(bytes, 0, 15) && bytes[15] === 0) return "unspecified, ::/128";
  if (zero(bytes, 0, 15) && bytes[15] === 1) return "loopback, ::1/128";
  const range = IPV6.find((r) => within(bytes, r));
  if (range) return `${range.name}, ${show(range)}`;
  // IANA allocates global unicast from 2000::/3 only; the rest is reserved by the IETF.
  if (((bytes[0] as number) & 0xe0) !== 0x20) return "reserved by the IETF, outside 2000::/3";
  return undefined;
}

/** Whether an address is a loopback one: 127.0.0.0/8, ::1, or an IPv6 form embedding 127.0.0.0/8. */
export function isLoopback(bytes: IpBytes): boolean {
  if (bytes.length === 4) return bytes[0] === 127;
  if (zero(bytes, 0, 15) && bytes[15] === 1) return true;
  const embedded = embeddedIpv4(bytes);
  return embedded !== undefined && embedded.ipv4[0] === 127;
}

/**
 * The IPv4 address an IPv6 one carries, and the form it is carried in: IPv4-mapped
 * (::ffff:0:0/96, RFC 4291), IPv4-compatible (::/96, deprecated but still routed by some
 * stacks), SIIT-translated (::ffff:0:0:0/96, RFC 7915), NAT64 (64:ff9b::/96, RFC 6052), 6to4
 * (2002::/16, RFC 3056) and Teredo (2001::/32, RFC 4380: the client is the last 32 bits
 * inverted; a Teredo address whose server is special is judged by the server).
 */
function embeddedIpv4(bytes: IpBytes): { form: string; ipv4: IpBytes } | undefined {
  const last = () => bytes.slice(12, 16);
  if (zero(bytes, 0, 10) && bytes[10] === 0xff && bytes[11] === 0xff)
    return { form: "an IPv4-mapped address (::ffff:0:0/96) of", ipv4: last() };
  if (zero(bytes, 0, 8) && bytes[8] === 0xff && bytes[9] === 0xff && zero(bytes, 10, 12))
    return { form: "an IPv4-translated address (::ffff:0:0:0/96) of", ipv4: last() };
  // ::/96 holds :: and ::1 too, which are their own cases.
  if (zero(bytes, 0, 12) && !(zero(bytes, 12, 15) && (bytes[15] as number) <= 1))
    return { form: "an IPv4-compatible address (::/96) of", ipv4: last() };
  if (bytes[0] === 0 && bytes[1] === 0x64 && bytes[2] === 0xff && bytes[3] === 0x9b && zero(bytes, 4, 12))
    return { form: "a NAT64 address (64:ff9b::/96) of", ipv4: last() };
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return { form: "a 6to4 address (2002::/16) of", ipv4: bytes.slice(2, 6) };
  if (bytes[0] === 0x20 && bytes[1] === 0x01 && zero(bytes, 2, 4)) {
    const client = last().map((b) => b ^ 0xff);
    const server = bytes.slice(4, 8);
    return specialRange(server) && !specialRange(client)
      ? { form: "a Teredo address (2001::/32) whose server is", ipv4: server }
      : { form: "a Teredo address (2001::/32) whose client is", ipv4: client };
  }
  return undefined;
}
