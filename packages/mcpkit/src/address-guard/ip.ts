/**
 * IP addresses as bytes, whatever their spelling, so that what is judged is the address a
 * connection would reach and not a text that happens not to look like one: IPv4 in every
 * form `inet_aton` and URL parsers accept (`127.1`, `0x7f.1`, `0177.0.0.1`, `2130706433`),
 * IPv6 shortened or not, with an embedded dotted quad, a zone id or brackets.
 */

/** 4 bytes (IPv4) or 16 (IPv6). */
export type IpBytes = Uint8Array;

/** The bytes of an IPv4 or IPv6 address in any spelling, or undefined when `text` is not one. */
export function parseIp(text: string): IpBytes | undefined {
  const bare = text.trim().replace(/^\[(.*)\]$/s, "$1");
  return bare.includes(":") ? parseIpv6(bare) : parseIpv4(bare);
}

/** One part of an IPv4 address: decimal, octal (leading 0) or hex (0x); undefined if none of those. */
function ipv4Part(part: string): number | undefined {
  let value: number;
  if (/^0x[0-9a-f]*$/i.test(part)) value = part.length === 2 ? 0 : Number.parseInt(part.slice(2), 16);
  else if (/^0[0-7]*$/.test(part)) value = Number.parseInt(part, 8);
  else if (/^[1-9][0-9]*$/.test(part)) value = Number(part);
  else return undefined;
  // Long hex or decimal parts exceed 2^53 before they exceed 32 bits' worth of digits: cap first.
  return part.length > 40 ? undefined : value;
}

/**
 * IPv4 as `inet_aton` reads it (and the URL Standard's host parser): one to four parts,
 * the last filling the bytes the others leave (`127.1` is 127.0.0.1, `2130706433` too).
 */
export function parseIpv4(text: string): IpBytes | undefined {
  const parts = (text.endsWith(".") ? text.slice(0, -1) : text).split(".");
  if (parts.length > 4 || parts.some((p) => p === "")) return undefined;
  const numbers = parts.map(ipv4Part);
  if (numbers.some((n) => n === undefined)) return undefined;
  const values = numbers as number[];
  const last = values.pop() as number;
  if (values.some((n) => n > 255) || last >= 256 ** (4 - values.length)) return undefined;
  const bytes = new Uint8Array(4);
  values.forEach((n, i) => {
    bytes[i] = n;
  });
  for (let i = 3, rest = last; i >= values.length; i--, rest = Math.floor(rest / 256)) bytes[i] = rest % 256;
  return bytes;
}

/** A dotted quad inside IPv6 text: exactly four decimal parts (RFC 4291 §2.2). */
function dottedQuad(text: string): number[] | undefined {
  const parts = text.split(".");
  if (parts.length !== 4 || parts.some((p) => !/^\d{1,3}$/.test(p) || Number(p) > 255)) return undefined;
  return parts.map(Number);
}

/** IPv6 text (RFC 4291 §2.2), a zone id (`%eth0`, RFC 6874) ignored. */
export function parseIpv6(text: string): IpBytes | undefined {
  const address = text.replace(/%.*$/s, "");
  const halves = address.split("::");
  if (halves.length > 2) return undefined;
  const groups = (half: string): number[] | undefined => {
    if (half === "") return [];
    const out: number[] = [];
    const pieces = half.split(":");
    for (const [i, piece] of pieces.entries()) {
      if (i === pieces.length - 1 && piece.includes(".")) {
        const quad = dottedQuad(piece);
        if (!quad) return undefined;
        out.push((quad[0] as number) * 256 + (quad[1] as number), (quad[2] as number) * 256 + (quad[3] as number));
      } else if (/^[0-9a-f]{1,4}$/i.test(piece)) out.push(Number.parseInt(piece, 16));
      else return undefined;
    }
    return out;
  };
  const head = groups(halves[0] as string);
  const tail = halves.length === 2 ? groups(halves[1] as string) : [];
  if (!head || !tail) return undefined;
  // A dotted quad belongs at the end only.
  if (halves.length === 2 && (halves[0] as string).includes(".")) return undefined;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const all = [...head, ...new Array<number>(halves.length === 2 ? missing : 0).fill(0), ...tail];
  const bytes = new Uint8Array(16);
  all.forEach((group, i) => {
    bytes[2 * i] = group >> 8;
    bytes[2 * i + 1] = group & 0xff;
  });
  return bytes;
}

/** The canonical text of an address: dotted quad, or RFC 5952 IPv6. */
export function formatIp(bytes: IpBytes): string {
  if (bytes.length === 4) return bytes.join(".");
  const groups: number[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((bytes[i] as number) << 8) | (bytes[i + 1] as number));
  // The longest run of two or more zero groups becomes "::" (the first, on a tie).
  let best = -1;
  let bestLength = 1;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength) [best, bestLength] = [i, j - i];
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (best < 0) return hex.join(":");
  return `${hex.slice(0, best).join(":")}::${hex.slice(best + bestLength).join(":")}`;
}
