/**
 * Remembers answers for `ttlMs`: a repeated question within that time is answered from
 * memory, and questions asked while the first is on its way share its answer. Failures
 * are not remembered. At most `maxEntries` answers are kept (the oldest go first).
 */
export function ttlCache<T>(options: { ttlMs: number; maxEntries?: number; now?: () => number }) {
  const now = options.now ?? Date.now;
  const maxEntries = options.maxEntries ?? 1000;
  const stored = new Map<string, { value: T; expires: number }>();
  const pending = new Map<string, Promise<T>>();
  return {
    async get(key: string, load: () => Promise<T>): Promise<T> {
      const hit = stored.get(key);
      if (hit && hit.expires > now()) return hit.value;
      stored.delete(key);
      let flight = pending.get(key);
      if (!flight) {
        flight = load().then(
          (value) => {
            pending.delete(key);
            if (options.ttlMs > 0) {
              stored.set(key, { value, expires: now() + options.ttlMs });
              if (stored.size > maxEntries) stored.delete(stored.keys().next().value as string);
            }
            return value;
          },
          (error: unknown) => {
            pending.delete(key);
            throw error;
          },
        );
        pending.set(key, flight);
      }
      return flight;
    },
    get size() {
      return stored.size;
    },
  };
}
