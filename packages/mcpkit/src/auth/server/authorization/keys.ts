import { type CryptoKey, exportJWK, generateKeyPair, importJWK, type JWK } from "jose";
import { newId, type Sealer } from "./seal.js";
import type { AuthorizationStore, SigningKeyRecord } from "./store.js";

export const SIGNING_ALGORITHM = "ES256";
const PURPOSE = "signing key";

export interface KeyRotation {
  /** A new key signs once the newest is this old, ms. */
  rotateAfterMs: number;
  /** A key is dropped from the JWKS (and the store) this long after a newer one took over, ms: longer than any token it signed lives. */
  retireAfterMs: number;
  now: () => number;
}

/**
 * The authorization server's signing keys, kept in its store (sealed) so every node signs
 * with, and publishes, the same ones. The newest signs; a new one is made when it is
 * older than `rotateAfterMs`; older keys stay in the JWKS until every token they signed
 * has expired. The list is read from the store at most once a minute, and at once when a
 * token names a key this node has not seen.
 */
export function signingKeys(store: AuthorizationStore, sealer: Sealer, rotation: KeyRotation) {
  let cached: { records: SigningKeyRecord[]; at: number } | undefined;
  let loading: Promise<SigningKeyRecord[]> | undefined;
  const privateKeys = new Map<string, CryptoKey>();
  const publicKeys = new Map<string, CryptoKey>();

  const load = (force = false): Promise<SigningKeyRecord[]> => {
    const now = rotation.now();
    if (!force && cached && now - cached.at < 60_000) return Promise.resolve(cached.records);
    loading ??= (async () => {
      try {
        let records = await store.signingKeys();
        const newest = records.at(-1);
        if (!newest || now - newest.createdAt >= rotation.rotateAfterMs) {
          await store.addSigningKey(await makeKey(now));
          records = await store.signingKeys();
        }
        // A key is retired once the key after it has signed for retireAfterMs.
        const retired = records.filter((_r, i) => {
          const successor = records[i + 1];
          return successor !== undefined && now - successor.createdAt >= rotation.retireAfterMs;
        });
        for (const r of retired) await store.removeSigningKey(r.kid);
        records = records.filter((r) => !retired.includes(r));
        cached = { records, at: now };
        return records;
      } finally {
        loading = undefined;
      }
    })();
    return loading;
  };

  const makeKey = async (now: number): Promise<SigningKeyRecord> => {
    const { publicKey, privateKey } = await generateKeyPair(SIGNING_ALGORITHM, { extractable: true });
    const kid = newId();
    const meta = { kid, alg: SIGNING_ALGORITHM, use: "sig" };
    return {
      kid,
      createdAt: now,
      publicJwk: { ...(await exportJWK(publicKey)), ...meta },
      sealedPrivateJwk: sealer.seal(PURPOSE, { ...(await exportJWK(privateKey)), ...meta }),
    };
  };

  return {
    /** The key to sign with now. */
    async current(): Promise<{ kid: string; key: CryptoKey }> {
      const records = await load();
      const newest = records.at(-1) as SigningKeyRecord;
      let key = privateKeys.get(newest.kid);
      if (!key) {
        const jwk = sealer.open<JWK>(PURPOSE, newest.sealedPrivateJwk);
        if (!jwk) throw new Error("A signing key in the store cannot be opened: do all nodes share the same secret?");
        key = (await importJWK(jwk, SIGNING_ALGORITHM)) as CryptoKey;
        privateKeys.set(newest.kid, key);
      }
      return { kid: newest.kid, key };
    },
    /** The published key set (RFC 7517), every key still valid. */
    async jwks(): Promise<{ keys: Record<string, unknown>[] }> {
      return { keys: (await load()).map((r) => r.publicJwk) };
    },
    /** The public key `kid` names, or undefined when no live key has that id. */
    async find(kid: string | undefined): Promise<CryptoKey | undefined> {
      if (!kid) return undefined;
      let record = (await load()).find((r) => r.kid === kid);
      // A key another node just made: read the store again, at most once a second.
      if (!record && cached && rotation.now() - cached.at > 1000)
        record = (await load(true)).find((r) => r.kid === kid);
      if (!record) return undefined;
      const hit = publicKeys.get(kid);
      if (hit) return hit;
      const key = (await importJWK(record.publicJwk as JWK, SIGNING_ALGORITHM)) as CryptoKey;
      publicKeys.set(kid, key);
      return key;
    },
  };
}

export type SigningKeys = ReturnType<typeof signingKeys>;
