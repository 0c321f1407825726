import { calculateJwkThumbprint, exportJWK, type JWK, SignJWT } from "jose";
import * as oauth from "oauth4webapi";

/** Proof algorithms this client can make, most preferred first. */
const PREFERRED = ["ES256", "EdDSA", "ES384", "PS256", "RS256"];

/** The key a client proves possession of (RFC 9449): the token is bound to its thumbprint. */
export interface DPoPKey {
  keyPair: oauth.CryptoKeyPair;
  /** Its JWS algorithm, e.g. "ES256". */
  alg: string;
}

/**
 * One client's DPoP state: the key, its public JWK and thumbprint, the oauth4webapi handle
 * that signs token requests (and keeps the authorization server's nonce), and the nonces
 * resource servers handed out, by origin (RFC 9449 §8, §9).
 */
export class DPoPSigner {
  readonly alg: string;
  /** The JWK SHA-256 thumbprint (RFC 7638) a bound token's cnf.jkt carries. */
  readonly jkt: string;
  /** For oauth4webapi token endpoint requests. */
  readonly handle: oauth.DPoPHandle;
  private readonly privateKey: oauth.CryptoKey;
  private readonly jwk: JWK;
  private readonly nonces = new Map<string, string>();

  private constructor(key: DPoPKey, jwk: JWK, jkt: string) {
    this.alg = key.alg;
    this.privateKey = key.keyPair.privateKey;
    this.jwk = jwk;
    this.jkt = jkt;
    this.handle = oauth.DPoP({}, key.keyPair);
  }

  /**
   * A signer for `key`, or for a new non-extractable key of the first algorithm both this
   * client and the server support; undefined when they share none.
   */
  static async create(supported: readonly string[], key?: DPoPKey): Promise<DPoPSigner | undefined> {
    let chosen = key;
    if (!chosen) {
      const alg = PREFERRED.find((a) => supported.includes(a));
      if (!alg) return undefined;
      chosen = { alg, keyPair: await oauth.generateKeyPair(alg) };
    }
    const jwk = await exportJWK(chosen.keyPair.publicKey);
    const publicJwk: JWK = Object.fromEntries(
      Object.entries(jwk).filter(([name]) => ["kty", "crv", "x", "y", "n", "e"].includes(name)),
    );
    return new DPoPSigner(chosen, publicJwk, await calculateJwkThumbprint(publicJwk, "sha256"));
  }

  /**
   * A fresh proof for one request (RFC 9449 §4.2): a new jti, the current time, the method,
   * the URL without query and fragment, the token's hash, and the server's nonce if it gave one.
   */
  async proof(method: string, url: URL, accessToken: string): Promise<string> {
    const nonce = this.nonces.get(url.origin);
    return new SignJWT({
      htm: method.toUpperCase(),
      htu: `${url.origin}${url.pathname}`,
      ath: (await sha256(accessToken)).toString("base64url"),
      ...(nonce && { nonce }),
    })
      .setProtectedHeader({ alg: this.alg, typ: "dpop+jwt", jwk: this.jwk })
      .setJti(crypto.randomUUID())
      .setIssuedAt()
      .sign(this.privateKey);
  }

  /** Keeps the nonce a resource server sent (DPoP-Nonce); true when it is a new one. */
  noteNonce(url: URL, response: Response): boolean {
    const nonce = response.headers.get("dpop-nonce");
    if (!nonce || this.nonces.get(url.origin) === nonce) return false;
    this.nonces.set(url.origin, nonce);
    return true;
  }
}

const sha256 = async (text: string) =>
  Buffer.from(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
