/**
 * Remembers DPoP proof ids for as long as a proof could be accepted (RFC 9449 §11.1), so a
 * captured proof is refused the second time. Give every node of a deployment the same
 * shared store to refuse replays across nodes.
 */
export interface ReplayCache {
  /** Records `key` until `expiresAt` (ms since the epoch); false when it was already recorded. */
  add(key: string, expiresAt: number): boolean | Promise<boolean>;
}

/**
 * An in-process replay cache. Expired ids are dropped as it goes; when `maxEntries` ids
 * are live it fails closed (every proof refused as a possible replay) rather than forget.
 */
export function memoryReplayCache(maxEntries = 100_000): ReplayCache {
  const seen = new Map<string, number>();
  const prune = (now: number) => {
    for (const [key, until] of seen) if (until <= now) seen.delete(key);
  };
  return {
    add(key, expiresAt) {
      const now = Date.now();
      const until = seen.get(key);
      if (until !== undefined && until > now) return false;
      if (seen.size >= maxEntries) prune(now);
      if (seen.size >= maxEntries) return false;
      seen.set(key, expiresAt);
      return true;
    },
  };
}
