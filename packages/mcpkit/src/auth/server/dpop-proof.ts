import { createHash } from "node:crypto";
import { calculateJwkThumbprint, decodeProtectedHeader, importJWK, type JWK, type JWTPayload, jwtVerify } from "jose";

/** Asymmetric algorithms accepted for proofs by default (RFC 9449 §4.2: never "none" nor a MAC). */
export const DPOP_ALGORITHMS = [
  "ES256",
  "ES384",
  "ES512",
  "EdDSA",
  "Ed25519",
  "PS256",
  "PS384",
  "PS512",
  "RS256",
  "RS384",
  "RS512",
];

/** The proof is not acceptable (RFC 9449 §4.3); the message says which check failed. */
export class DPoPProofError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "DPoPProofError";
  }
}

export interface ProofExpectations {
  /** The request's method (htm). */
  method: string;
  /** URIs the request may have been sent to (htu): scheme, authority and path, compared normalized. */
  urls: string[];
  /** The access token presented with it (ath), if any. */
  accessToken?: string;
  algorithms: string[];
  /** How old `iat` may be, seconds. */
  maxAgeSec: number;
  /** Clock difference tolerated either way, seconds. */
  clockToleranceSec: number;
}

export interface VerifiedProof {
  /** The JWK SHA-256 thumbprint of the proof's key (RFC 7638), which cnf.jkt binds to. */
  jkt: string;
  jti: string;
  /** Seconds since the epoch. */
  iat: number;
  nonce?: string;
}

const PRIVATE_MEMBERS = ["d", "p", "q", "dp", "dq", "qi", "k", "oth"];

/** RFC 9449 §4.3 (with RFC 3986 §6.2.2–6.2.3 normalization): scheme, host and path; query and fragment ignored. */
export function normalizeHtu(value: string): string | undefined {
  try {
    const url = new URL(value);
    return `${url.protocol}//${url.host}${url.pathname}`;
  } catch {
    return undefined;
  }
}

/** base64url(SHA-256(token)): the `ath` of a proof sent with that token (RFC 9449 §4.2). */
export const accessTokenHash = (token: string) => createHash("sha256").update(token, "ascii").digest("base64url");

/**
 * RFC 9449 §4.3, checks 1–12 less the nonce (the caller's): one well-formed JWT of type
 * dpop+jwt, an accepted asymmetric algorithm, a public key in the header that verifies the
 * signature, jti, htm and htu matching this request, a recent iat, and ath matching the token.
 */
export async function verifyDPoPProof(proof: string, expected: ProofExpectations): Promise<VerifiedProof> {
  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader(proof);
  } catch {
    throw new DPoPProofError("The DPoP proof is not a JWT");
  }
  if (header.typ !== "dpop+jwt") throw new DPoPProofError('The DPoP proof\'s typ is not "dpop+jwt"');
  if (typeof header.alg !== "string" || !expected.algorithms.includes(header.alg)) {
    throw new DPoPProofError(`The DPoP proof's algorithm must be one of ${expected.algorithms.join(", ")}`);
  }
  const jwk = header.jwk as JWK | undefined;
  if (!jwk || typeof jwk !== "object") throw new DPoPProofError("The DPoP proof has no jwk header");
  if (PRIVATE_MEMBERS.some((member) => member in jwk))
    throw new DPoPProofError("The DPoP proof's jwk is not a public key");
  let payload: JWTPayload;
  try {
    const key = await importJWK(jwk, header.alg);
    ({ payload } = await jwtVerify(proof, key, { algorithms: [header.alg] }));
  } catch (error) {
    throw new DPoPProofError("The DPoP proof's signature does not verify with its jwk", { cause: error });
  }
  if (typeof payload.jti !== "string" || payload.jti.length < 8) throw new DPoPProofError("The DPoP proof has no jti");
  if (payload.htm !== expected.method) {
    throw new DPoPProofError(`The DPoP proof is for ${String(payload.htm)}, not for this ${expected.method} request`);
  }
  const htu = typeof payload.htu === "string" ? normalizeHtu(payload.htu) : undefined;
  if (!htu || !expected.urls.some((url) => normalizeHtu(url) === htu)) {
    throw new DPoPProofError(`The DPoP proof is for ${String(payload.htu)}, not for this URL`);
  }
  const now = Math.floor(Date.now() / 1000);
  if (typeof payload.iat !== "number") throw new DPoPProofError("The DPoP proof has no iat");
  if (
    payload.iat > now + expected.clockToleranceSec ||
    payload.iat < now - expected.maxAgeSec - expected.clockToleranceSec
  ) {
    throw new DPoPProofError("The DPoP proof's iat is outside the accepted window; make a fresh proof");
  }
  if (expected.accessToken !== undefined && payload.ath !== accessTokenHash(expected.accessToken)) {
    throw new DPoPProofError("The DPoP proof's ath does not match the access token");
  }
  return {
    jkt: await calculateJwkThumbprint(jwk, "sha256"),
    jti: payload.jti,
    iat: payload.iat,
    ...(typeof payload.nonce === "string" && { nonce: payload.nonce }),
  };
}
