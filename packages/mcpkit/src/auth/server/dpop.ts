import { hmacNonces, type NonceSource } from "./dpop-nonce.js";
import { DPOP_ALGORITHMS, DPoPProofError, type VerifiedProof, verifyDPoPProof } from "./dpop-proof.js";
import { memoryReplayCache, type ReplayCache } from "./replay-cache.js";

/** How a resource server accepts DPoP-bound tokens (RFC 9449). */
export interface DPoPOptions {
  /** Refuse Bearer tokens: every token must be DPoP-bound (default false). */
  required?: boolean;
  /**
   * Demand a server-issued nonce in every proof (RFC 9449 §9): `true` (a per-process
   * secret), or the secret nodes share and how long a nonce lives (default 300 s).
   */
  nonce?: boolean | { secret?: Uint8Array | string; lifetimeSec?: number };
  /** Accepted proof algorithms (default: ES256/384/512, EdDSA, PS256/384/512, RS256/384/512). */
  algorithms?: string[];
  /** How old a proof's iat may be, seconds (default 60). */
  proofMaxAgeSec?: number;
  /** Clock difference tolerated either way, seconds (default 5). */
  clockToleranceSec?: number;
  /** Where proof ids are remembered (default: in this process). Share one across nodes. */
  replayCache?: ReplayCache;
}

/** A refused proof: the RFC 9449 error code, and a fresh nonce when one is needed. */
export class ProofRefusal extends Error {
  readonly code: "invalid_dpop_proof" | "use_dpop_nonce";
  readonly nonce: string | undefined;

  constructor(code: ProofRefusal["code"], message: string, nonce?: string) {
    super(message);
    this.name = "ProofRefusal";
    this.code = code;
    this.nonce = nonce;
  }
}

export interface DPoPVerifier {
  readonly algorithms: string[];
  readonly required: boolean;
  /** The request's one proof, checked against it and the token (RFC 9449 §4.3, §7.1, §9). */
  check(
    request: { method: string; url: string; headers: { get(name: string): string | null } },
    token: string,
  ): Promise<VerifiedProof>;
  /** Records the proof's id; false when it was seen before (a replay). */
  remember(proof: VerifiedProof): Promise<boolean>;
}

/**
 * The resource server's DPoP checks. `origin` is the resource's public origin: a proof may
 * name it with the request's path (behind a proxy the request's own URL may differ).
 */
export function dpopVerifier(options: DPoPOptions, origin: string): DPoPVerifier {
  const algorithms = options.algorithms ?? DPOP_ALGORITHMS;
  const maxAgeSec = options.proofMaxAgeSec ?? 60;
  const clockToleranceSec = options.clockToleranceSec ?? 5;
  const replay = options.replayCache ?? memoryReplayCache();
  const nonce = options.nonce;
  const nonces: NonceSource | undefined = nonce
    ? hmacNonces(nonce === true ? undefined : nonce.secret, nonce === true ? undefined : nonce.lifetimeSec)
    : undefined;
  return {
    algorithms,
    required: options.required ?? false,
    async check(request, token) {
      const header = request.headers.get("dpop");
      // RFC 9449 §4.3: exactly one DPoP header (repeated headers arrive joined by commas).
      if (!header || header.includes(",")) {
        throw new ProofRefusal("invalid_dpop_proof", "A DPoP-bound token needs exactly one DPoP proof header");
      }
      const url = new URL(request.url);
      let proof: VerifiedProof;
      try {
        proof = await verifyDPoPProof(header, {
          method: request.method.toUpperCase(),
          urls: [request.url, `${origin}${url.pathname}`],
          accessToken: token,
          algorithms,
          maxAgeSec,
          clockToleranceSec,
        });
      } catch (error) {
        if (error instanceof DPoPProofError) throw new ProofRefusal("invalid_dpop_proof", error.message);
        throw error;
      }
      if (nonces && !nonces.valid(proof.nonce)) {
        throw new ProofRefusal(
          "use_dpop_nonce",
          "This server requires a fresh DPoP nonce in the proof",
          nonces.issue(),
        );
      }
      return proof;
    },
    async remember(proof) {
      const expiresAt = (proof.iat + maxAgeSec + 2 * clockToleranceSec) * 1000;
      return replay.add(`${proof.jkt}:${proof.jti}`, expiresAt);
    },
  };
}
