import { type CryptoKey, createLocalJWKSet, errors, type JSONWebKeySet, type JWSHeaderParameters } from "jose";

/** The key set could not be had (the JWKS endpoint down, slow, or answering nonsense): no fault of the token. */
export class KeySetUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "KeySetUnavailableError";
  }
}

export interface RemoteKeySetOptions {
  /** How long one fetch may take, ms (default 5000). */
  timeoutMs?: number;
  /** The fewest ms between two fetches, failed or not (default 30 000): a token naming an unknown key, or a broken endpoint, cannot make every request fetch. */
  cooldownMs?: number;
  /** How long fetched keys are used before they are fetched again, ms (default 600 000). */
  maxAgeMs?: number;
  fetch?: typeof fetch;
}

type Resolver = (header: JWSHeaderParameters) => Promise<CryptoKey>;

/**
 * A JWKS fetched from a URL, for jose's jwtVerify. At most one fetch at a time and one per
 * cooldown: requests arriving meanwhile wait for the fetch under way or, after a failure,
 * get the same failure until the cooldown ends. Keys that once worked keep working while
 * a refetch fails (the old set is kept); a token naming a key not in the set triggers a
 * refetch (key rotation), within the same cooldown.
 */
export function remoteKeySet(url: URL, options: RemoteKeySetOptions = {}): Resolver {
  const timeoutMs = options.timeoutMs ?? 5000;
  const cooldownMs = options.cooldownMs ?? 30_000;
  const maxAgeMs = options.maxAgeMs ?? 600_000;
  const fetchImpl = options.fetch ?? globalThis.fetch;
  let keys: ReturnType<typeof createLocalJWKSet> | undefined;
  let fetchedAt = Number.NEGATIVE_INFINITY;
  let attemptedAt = Number.NEGATIVE_INFINITY;
  let failure: KeySetUnavailableError | undefined;
  let inFlight: Promise<void> | undefined;

  const load = async (): Promise<void> => {
    let response: Response;
    try {
      response = await fetchImpl(url, {
        headers: { accept: "application/json" },
        signal: AbortSignal.timeout(timeoutMs),
        redirect: "error",
      });
    } catch (error) {
      throw new KeySetUnavailableError(`The key set at ${url} could not be fetched: ${(error as Error).message}`, {
        cause: error,
      });
    }
    if (!response.ok) throw new KeySetUnavailableError(`The key set at ${url} answered HTTP ${response.status}`);
    let body: unknown;
    try {
      body = await response.json();
    } catch (error) {
      throw new KeySetUnavailableError(`The key set at ${url} is not JSON`, { cause: error });
    }
    try {
      keys = createLocalJWKSet(body as JSONWebKeySet);
    } catch (error) {
      throw new KeySetUnavailableError(`The key set at ${url} is not a JSON Web Key Set`, { cause: error });
    }
    fetchedAt = Date.now();
  };

  /** Fetches unless one is under way or the cooldown since the last attempt has not passed. */
  const refresh = (): Promise<void> => {
    if (inFlight) return inFlight;
    if (Date.now() - attemptedAt < cooldownMs) return failure && !keys ? Promise.reject(failure) : Promise.resolve();
    attemptedAt = Date.now();
    inFlight = load()
      .then(() => {
        failure = undefined;
      })
      .catch((error: KeySetUnavailableError) => {
        failure = error;
        if (!keys) throw error;
      })
      .finally(() => {
        inFlight = undefined;
      });
    return inFlight;
  };

  return async (header) => {
    if (!keys || Date.now() - fetchedAt > maxAgeMs) await refresh();
    if (!keys) throw failure ?? new KeySetUnavailableError(`The key set at ${url} could not be fetched`);
    try {
      return await keys(header);
    } catch (error) {
      if (!(error instanceof errors.JWKSNoMatchingKey)) throw error;
      const before = keys;
      await refresh();
      if (keys === before) throw error;
      return keys(header);
    }
  };
}
