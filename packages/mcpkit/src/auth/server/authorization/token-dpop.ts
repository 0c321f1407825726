import { hmacNonces, type NonceSource } from "../dpop-nonce.js";
import { DPOP_ALGORITHMS, DPoPProofError, verifyDPoPProof } from "../dpop-proof.js";
import { memoryReplayCache, type ReplayCache } from "../replay-cache.js";

/** DPoP at the token endpoint (createAuthorizationServer's `dpop`). */
export interface TokenDPoPOptions {
  /** Accepted proof algorithms (default: ES256/384/512, EdDSA, PS256/384/512, RS256/384/512). */
  algorithms?: string[];
  /** Demand a server nonce in proofs (RFC 9449 §8): `true`, or the secret nodes share (32+ bytes). */
  nonce?: boolean | { secret?: Uint8Array | string; lifetimeSec?: number };
  /** Where proof ids are remembered (default: in this process); share one across nodes. */
  replayCache?: ReplayCache;
}

const MAX_AGE_SEC = 60;
const TOLERANCE_SEC = 5;

export type ProofOutcome =
  | { kind: "none" }
  | { kind: "bound"; jkt: string }
  | { kind: "refused"; error: "invalid_dpop_proof" | "use_dpop_nonce"; description: string; nonce?: string };

/**
 * Checks the DPoP proof of a token request (RFC 9449 §4.3, §5), reusing the resource
 * server's proof checks: a request without one gets Bearer tokens, one with a valid proof
 * gets tokens bound to the proof's key.
 */
export function tokenEndpointDPoP(options: TokenDPoPOptions, tokenEndpoint: string) {
  const algorithms = options.algorithms ?? DPOP_ALGORITHMS;
  const replay = options.replayCache ?? memoryReplayCache();
  const nonce = options.nonce;
  const nonces: NonceSource | undefined = nonce
    ? hmacNonces(nonce === true ? undefined : nonce.secret, nonce === true ? undefined : nonce.lifetimeSec)
    : undefined;
  return {
    algorithms,
    async check(request: Request): Promise<ProofOutcome> {
      const header = request.headers.get("dpop");
      if (header === null) return { kind: "none" };
      if (header.includes(","))
        return { kind: "refused", error: "invalid_dpop_proof", description: "Send exactly one DPoP proof" };
      try {
        const proof = await verifyDPoPProof(header, {
          method: "POST",
          urls: [tokenEndpoint],
          algorithms,
          maxAgeSec: MAX_AGE_SEC,
          clockToleranceSec: TOLERANCE_SEC,
        });
        if (nonces && !nonces.valid(proof.nonce))
          return {
            kind: "refused",
            error: "use_dpop_nonce",
            description: "This server requires a fresh DPoP nonce in the proof",
            nonce: nonces.issue(),
          };
        const expiresAt = (proof.iat + MAX_AGE_SEC + 2 * TOLERANCE_SEC) * 1000;
        if (!(await replay.add(`${proof.jkt}:${proof.jti}`, expiresAt)))
          return { kind: "refused", error: "invalid_dpop_proof", description: "This DPoP proof was used before" };
        return { kind: "bound", jkt: proof.jkt };
      } catch (error) {
        if (error instanceof DPoPProofError)
          return { kind: "refused", error: "invalid_dpop_proof", description: error.message };
        throw error;
      }
    },
  };
}

export type TokenDPoP = ReturnType<typeof tokenEndpointDPoP>;
