import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * Encryption at rest (AES-256-GCM) for what the authorization server must read back from
 * its store: upstream tokens, signing keys, sign-ins under way. The key is derived from a
 * secret every node of a deployment shares (HKDF-SHA256), so any node opens what another
 * sealed; sealed text names what it is for, and opens only as that.
 */
export interface Sealer {
  seal(purpose: string, value: unknown): string;
  /** The value, or undefined when the text was not sealed with this secret for this purpose. */
  open<T>(purpose: string, sealed: string): T | undefined;
}

export function sealer(secret: Uint8Array | string): Sealer {
  const material = typeof secret === "string" ? Buffer.from(secret, "utf8") : Buffer.from(secret);
  if (material.byteLength < 32) throw new RangeError("The authorization server's secret must be at least 32 bytes");
  const key = Buffer.from(hkdfSync("sha256", material, "mcpkit authorization server", "sealing key", 32));
  return {
    seal(purpose, value) {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      cipher.setAAD(Buffer.from(purpose));
      const body = Buffer.concat([cipher.update(JSON.stringify(value), "utf8"), cipher.final()]);
      return `v1.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url")}`;
    },
    open<T>(purpose: string, sealed: string): T | undefined {
      if (!sealed.startsWith("v1.")) return undefined;
      const raw = Buffer.from(sealed.slice(3), "base64url");
      if (raw.byteLength < 28) return undefined;
      try {
        const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, 12));
        decipher.setAAD(Buffer.from(purpose));
        decipher.setAuthTag(raw.subarray(12, 28));
        const text = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
        return JSON.parse(text) as T;
      } catch {
        return undefined;
      }
    },
  };
}

/** A secret the server hands out (a code, a refresh token, a client secret): 256 random bits. */
export const newSecret = () => randomBytes(32).toString("base64url");

/** An id for a record: 128 random bits. */
export const newId = () => randomBytes(16).toString("base64url");

/** How a secret is stored and looked up: its SHA-256 (the secrets are random, so no salt is needed). */
export const hashSecret = (secret: string) => createHash("sha256").update(secret, "utf8").digest("base64url");

/** Constant-time comparison of two strings. */
export function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.byteLength === y.byteLength && timingSafeEqual(x, y);
}
