import { bearerChallenge, hmacNonces, memoryReplayCache, parseAuthChallenge, parseChallenges } from "mcpkit/auth";
import { afterEach, describe, expect, it, vi } from "vitest";

afterEach(() => {
  vi.useRealTimers();
});

describe("WWW-Authenticate challenges", () => {
  it("reads several challenges with their parameters, quoted or not", () => {
    const header =
      'Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp", scope="a b", DPoP error="use_dpop_nonce", error_description="say \\"nonce\\"", algs="ES256 EdDSA", Basic realm=x';
    expect(parseChallenges(header)).toEqual([
      {
        scheme: "bearer",
        params: { resource_metadata: "https://mcp.example.com/.well-known/oauth-protected-resource/mcp", scope: "a b" },
      },
      { scheme: "dpop", params: { error: "use_dpop_nonce", error_description: 'say "nonce"', algs: "ES256 EdDSA" } },
      { scheme: "basic", params: { realm: "x" } },
    ]);
  });

  it("finds the resource metadata in a DPoP-only challenge", () => {
    expect(parseAuthChallenge('DPoP resource_metadata="https://a/.well-known/x"')).toEqual({
      scheme: "dpop",
      resourceMetadata: "https://a/.well-known/x",
    });
  });

  it("builds a DPoP challenge with its algorithms", () => {
    expect(bearerChallenge({ error: "invalid_dpop_proof" }, "DPoP", ["ES256", "EdDSA"])).toBe(
      'DPoP error="invalid_dpop_proof", algs="ES256 EdDSA"',
    );
  });
});

describe("DPoP nonces", () => {
  it("accepts its own nonces until they expire, and refuses forged or foreign ones", () => {
    vi.useFakeTimers({ now: new Date("2026-08-01T00:00:00Z") });
    const nonces = hmacNonces("a secret of at least thirty-two bytes!!", 300);
    const nonce = nonces.issue();
    expect(nonces.valid(nonce)).toBe(true);
    expect(nonces.valid(undefined)).toBe(false);
    expect(nonces.valid(`${nonce}x`)).toBe(false);
    expect(hmacNonces("another secret of at least thirty-two bytes").valid(nonce)).toBe(false);
    vi.setSystemTime(new Date("2026-08-01T00:05:01Z"));
    expect(nonces.valid(nonce)).toBe(false);
  });

  it("refuses a short secret", () => {
    expect(() => hmacNonces("short")).toThrow(RangeError);
  });
});

describe("the in-memory replay cache", () => {
  it("refuses a proof id seen before, until its expiry", () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const cache = memoryReplayCache();
    expect(cache.add("jkt:1", 1_060_000)).toBe(true);
    expect(cache.add("jkt:1", 1_060_000)).toBe(false);
    vi.setSystemTime(1_060_001);
    expect(cache.add("jkt:1", 1_120_000)).toBe(true);
  });

  it("fails closed when full of live ids, and makes room as they expire", () => {
    vi.useFakeTimers({ now: 0 });
    const cache = memoryReplayCache(2);
    expect(cache.add("a", 1000)).toBe(true);
    expect(cache.add("b", 5000)).toBe(true);
    expect(cache.add("c", 5000)).toBe(false);
    vi.setSystemTime(2000);
    expect(cache.add("c", 5000)).toBe(true);
  });
});
