import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/** Server-issued DPoP nonces (RFC 9449 §9): issued with a 401 use_dpop_nonce, checked in every proof. */
export interface NonceSource {
  issue(): string;
  valid(nonce: string | undefined): boolean;
}

/**
 * Stateless nonces: a timestamp and its HMAC, valid for `lifetimeSec`. Nodes sharing the
 * secret accept each other's nonces; by default each process makes its own secret.
 */
export function hmacNonces(secret: Uint8Array | string = randomBytes(32), lifetimeSec = 300): NonceSource {
  const key = typeof secret === "string" ? Buffer.from(secret, "utf8") : secret;
  if (key.byteLength < 32) throw new RangeError("The DPoP nonce secret must be at least 32 bytes");
  const mac = (stamp: string) => createHmac("sha256", key).update(stamp).digest("base64url");
  return {
    issue() {
      const stamp = Math.floor(Date.now() / 1000).toString(36);
      return `${stamp}.${mac(stamp)}`;
    },
    valid(nonce) {
      if (!nonce) return false;
      const [stamp, tag, ...rest] = nonce.split(".");
      if (!stamp || !tag || rest.length > 0) return false;
      const expected = Buffer.from(mac(stamp));
      const given = Buffer.from(tag);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return false;
      const age = Math.floor(Date.now() / 1000) - Number.parseInt(stamp, 36);
      return age >= -5 && age <= lifetimeSec;
    },
  };
}
