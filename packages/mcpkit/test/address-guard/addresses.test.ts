import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatIp, parseIp } from "../../src/address-guard/ip.js";
import { addressRefusal } from "../../src/address-guard/lookup.js";
import { isLoopback } from "../../src/address-guard/ranges.js";

// The one address guard judges bytes, not text: every spelling of a special-purpose address
// (IPv4 in inet_aton's forms, IPv6 shortened or not, bracketed, with a zone id, and IPv4
// carried inside IPv6 as mapped, compatible, SIIT, NAT64, 6to4 and Teredo addresses) is
// refused, and global unicast addresses are not. The URL Standard's host parser is the
// oracle for what a spelling means.

const SPECIAL_V4: [string, number][] = [
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
];

const SPECIAL_V6: [string, number][] = [
  ["::", 128],
  ["::1", 128],
  ["64:ff9b:1::", 48],
  ["100::", 64],
  ["2001:db8::", 32],
  ["2001:100::", 24],
  ["2001:2::", 48],
  ["3fff::", 20],
  ["5f00::", 16],
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
  ["4000::", 2],
  ["::100:0:0:0", 40],
];

/** An address inside `prefix/bits`, its host bits from `noise`. */
function inside(prefix: string, bits: number, noise: number[]): Uint8Array {
  const bytes = parseIp(prefix) as Uint8Array;
  const out = Uint8Array.from(bytes);
  for (let i = 0; i < out.length; i++) {
    const fixed = Math.max(0, Math.min(8, bits - 8 * i));
    const mask = (0xff << (8 - fixed)) & 0xff;
    out[i] = ((bytes[i] as number) & mask) | ((noise[i] as number) & ~mask & 0xff);
  }
  return out;
}

const noise = (n: number) => fc.array(fc.integer({ min: 0, max: 255 }), { minLength: n, maxLength: n });
const specialV4 = fc
  .tuple(fc.constantFrom(...SPECIAL_V4), noise(4))
  .map(([[prefix, bits], n]) => inside(prefix, bits, n));
const specialV6 = fc
  .tuple(fc.constantFrom(...SPECIAL_V6), noise(16))
  .map(([[prefix, bits], n]) => inside(prefix, bits, n));

/** inet_aton's spellings of four bytes: 1 to 4 parts, each in decimal, octal or hex. */
const v4Spelling = (bytes: Uint8Array) =>
  fc
    .tuple(
      fc.integer({ min: 1, max: 4 }),
      fc.array(fc.constantFrom("dec", "oct", "hex", "HEX"), { minLength: 4, maxLength: 4 }),
      fc.boolean(),
    )
    .map(([parts, radixes, trailingDot]) => {
      const values = [...bytes.slice(0, parts - 1)].map(Number);
      values.push([...bytes.slice(parts - 1)].reduce((n, b) => n * 256 + b, 0));
      const text = values
        .map((v, i) => {
          const radix = radixes[i];
          if (radix === "oct") return `0${v.toString(8)}`;
          if (radix === "hex") return `0x${v.toString(16)}`;
          if (radix === "HEX") return `0X${v.toString(16).toUpperCase()}`;
          return String(v);
        })
        .join(".");
      return trailingDot ? `${text}.` : text;
    });

/** Spellings of sixteen bytes: full or compressed groups, leading zeros, either case, a dotted tail, brackets, a zone id. */
const v6Spelling = (bytes: Uint8Array) =>
  fc
    .record({
      compress: fc.boolean(),
      pad: fc.boolean(),
      upper: fc.boolean(),
      dotted: fc.boolean(),
      bracket: fc.boolean(),
      zone: fc.constantFrom("", "%eth0", "%25en1", "%1"),
    })
    .map(({ compress, pad, upper, dotted, bracket, zone }) => {
      const groups: string[] = [];
      for (let i = 0; i < 16; i += 2) {
        const g = (((bytes[i] as number) << 8) | (bytes[i + 1] as number)).toString(16);
        groups.push(pad ? g.padStart(4, "0") : g);
      }
      const hex = dotted ? groups.slice(0, 6) : groups;
      const tail = dotted ? [[...bytes.slice(12)].join(".")] : [];
      let text = [...hex, ...tail].join(":");
      // "::" stands for the first run of zero groups (any run is a valid spelling).
      const start = hex.findIndex((g) => /^0+$/.test(g));
      if (compress && start >= 0) {
        let end = start;
        while (end < hex.length && /^0+$/.test(hex[end] as string)) end++;
        text = `${hex.slice(0, start).join(":")}::${[...hex.slice(end), ...tail].join(":")}`;
      }
      if (upper) text = text.toUpperCase();
      return bracket ? `[${text}]` : `${text}${zone}`;
    });

/** What the URL Standard's host parser makes of an address (the oracle). */
const byUrl = (text: string) => {
  const host = text.includes(":") ? `[${text.replace(/^\[|\]$/g, "").replace(/%.*$/, "")}]` : text;
  return new URL(`http://${host}/`).hostname.replace(/^\[|\]$/g, "");
};

describe("parsing an address to its bytes", () => {
  it("reads every inet_aton spelling of an IPv4 address as the URL parser does", () => {
    fc.assert(
      fc.property(
        noise(4).chain((n) => v4Spelling(Uint8Array.from(n)).map((text) => ({ bytes: Uint8Array.from(n), text }))),
        ({ bytes, text }) => {
          expect(parseIp(text)).toEqual(bytes);
          expect(formatIp(parseIp(text) as Uint8Array)).toBe(byUrl(text));
        },
      ),
      { numRuns: 500 },
    );
  });

  it("reads every spelling of an IPv6 address as the URL parser does", () => {
    fc.assert(
      fc.property(
        noise(16).chain((n) => v6Spelling(Uint8Array.from(n)).map((text) => ({ bytes: Uint8Array.from(n), text }))),
        ({ bytes, text }) => {
          expect(parseIp(text)).toEqual(bytes);
          expect(formatIp(bytes)).toBe(byUrl(text));
        },
      ),
      { numRuns: 500 },
    );
  });

  it("is not fooled by text that is no address", () => {
    for (const text of [
      "localhost",
      "1.2.3.4.5",
      "256.1.1.1",
      "1.2.3.0x100",
      "0x1.0x2.0x3.0x4x",
      "1::2::3",
      "::g",
      "1.2.3.4::",
      "12345::",
      "",
      "1:2:3:4:5:6:7:8:9",
      "::1.2.3",
    ])
      expect(parseIp(text), text).toBeUndefined();
    expect(parseIp("4294967296")).toBeUndefined();
    expect(parseIp("4294967295")).toEqual(Uint8Array.from([255, 255, 255, 255]));
  });
});

describe("judging an address", () => {
  it("refuses every special-purpose IPv4 address, however it is spelled", () => {
    fc.assert(
      fc.property(
        specialV4.chain((bytes) => v4Spelling(bytes)),
        (text) => {
          expect(addressRefusal(text, {}), text).toBeDefined();
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("refuses every special-purpose IPv6 address, however it is spelled", () => {
    fc.assert(
      fc.property(
        specialV6.chain((bytes) => v6Spelling(bytes)),
        (text) => {
          expect(addressRefusal(text, {}), text).toBeDefined();
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("refuses a special-purpose IPv4 address carried in IPv6 (mapped, compatible, SIIT, NAT64, 6to4, Teredo)", () => {
    const carriers: [string, (v4: Uint8Array, n: number[]) => Uint8Array][] = [
      ["::ffff:0:0/96 mapped", (v4) => Uint8Array.from([...new Array(10).fill(0), 0xff, 0xff, ...v4])],
      ["::/96 compatible", (v4) => Uint8Array.from([...new Array(12).fill(0), ...v4])],
      ["::ffff:0:0:0/96 SIIT", (v4) => Uint8Array.from([...new Array(8).fill(0), 0xff, 0xff, 0, 0, ...v4])],
      ["64:ff9b::/96 NAT64", (v4) => Uint8Array.from([0, 0x64, 0xff, 0x9b, ...new Array(8).fill(0), ...v4])],
      ["2002::/16 6to4", (v4, n) => Uint8Array.from([0x20, 0x02, ...v4, ...n.slice(0, 10)])],
      // Teredo: a public server (8.8.8.8), the client's address inverted in the last 32 bits.
      [
        "2001::/32 Teredo",
        (v4, n) => Uint8Array.from([0x20, 0x01, 0, 0, 8, 8, 8, 8, ...n.slice(0, 4), ...v4.map((b) => b ^ 0xff)]),
      ],
    ];
    fc.assert(
      fc.property(fc.constantFrom(...carriers), specialV4, noise(10), ([, carry], v4, n) => {
        const bytes = carry(v4, n);
        fc.pre(bytes.length === 16);
        const text = formatIp(bytes);
        expect(addressRefusal(text, {}), text).toBeDefined();
        expect(addressRefusal(`[${text.toUpperCase()}]`, {}), text).toBeDefined();
      }),
      { numRuns: 1000 },
    );
  });

  it("names what it refuses: the range, and for a carried address the IPv4 address inside", () => {
    expect(addressRefusal("::7f00:1", {})).toBe(
      "::7f00:1 (an IPv4-compatible address (::/96) of 127.0.0.1: loopback, 127.0.0.0/8)",
    );
    expect(addressRefusal("::ffff:0:7f00:1", {})).toContain("IPv4-translated address (::ffff:0:0:0/96) of 127.0.0.1");
    expect(addressRefusal("[::ffff:169.254.169.254]", {})).toContain("of 169.254.169.254: link-local");
    expect(addressRefusal("64:ff9b::a00:1", {})).toContain("NAT64 address (64:ff9b::/96) of 10.0.0.1: private");
    expect(addressRefusal("2002:c0a8:101::1", {})).toContain("6to4 address (2002::/16) of 192.168.1.1: private");
    expect(addressRefusal("2001:0:4136:e378:8000:63bf:80ff:fffe", {})).toContain(
      "Teredo address (2001::/32) whose client is 127.0.0.1",
    );
    expect(addressRefusal("fec0::1%eth0", {})).toBe("fec0::1 (site-local, fec0::/10)");
    expect(addressRefusal("0x7f.1", {})).toBe("127.0.0.1 (loopback, 127.0.0.0/8)");
    expect(addressRefusal("2130706433", {})).toBe("127.0.0.1 (loopback, 127.0.0.0/8)");
    expect(addressRefusal("100.100.100.100", {})).toContain("carrier-grade NAT");
    expect(addressRefusal("4000::1", {})).toContain("outside 2000::/3");
  });

  it("lets global unicast addresses through, IPv4 carried in IPv6 included", () => {
    for (const address of [
      "8.8.8.8",
      "1.1.1.1",
      "93.184.215.14",
      "2606:4700:4700::1111",
      "2a00:1450:4001:82a::200e",
      "::ffff:8.8.8.8",
      "64:ff9b::808:808",
      "2002:808:808::1",
      "2001:0:808:808:0:0:f7f7:f7f7", // Teredo: server and client 8.8.8.8
    ])
      expect(addressRefusal(address, {}), address).toBeUndefined();
  });

  it("lets loopback through only when told to, and private addresses only when told to", () => {
    for (const loopback of ["127.0.0.1", "127.1.2.3", "::1", "::ffff:127.0.0.1", "[::ffff:7f00:1]"]) {
      expect(isLoopback(parseIp(loopback) as Uint8Array), loopback).toBe(true);
      expect(addressRefusal(loopback, { allowLoopback: true }), loopback).toBeUndefined();
    }
    expect(addressRefusal("10.0.0.1", { allowLoopback: true })).toBeDefined();
    expect(addressRefusal("10.0.0.1", { allowPrivate: true })).toBeUndefined();
    expect(addressRefusal("not-an-address", { allowPrivate: true })).toBe("not-an-address is not an IP address");
  });
});
