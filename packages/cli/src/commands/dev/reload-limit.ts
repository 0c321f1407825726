/** How many reloads in how long mean a loop, not a person saving. */
export const RELOAD_LIMIT = { max: 20, windowMs: 10_000 };

/**
 * Counts reloads in a sliding window: `record()` is false once more than `max` happened in
 * the last `windowMs` (a server that writes a file its reloads watch would reload forever).
 */
export function reloadLimit({ max, windowMs } = RELOAD_LIMIT, now: () => number = Date.now) {
  const times: number[] = [];
  return {
    record(): boolean {
      const at = now();
      times.push(at);
      while ((times[0] as number) <= at - windowMs) times.shift();
      return times.length <= max;
    },
  };
}
