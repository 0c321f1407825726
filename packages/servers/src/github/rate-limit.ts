/** GitHub's rate-limit headers (REST API §Rate limits), read from any response. */
export interface RateLimit {
  limit: number;
  remaining: number;
  /** When the window resets, ms since the epoch. */
  resetAt: number;
  /** Which budget: core, search, code_search, graphql… */
  resource: string;
}

type Headers = Record<string, string | number | undefined>;

export function rateLimitOf(headers: Headers | undefined): RateLimit | undefined {
  const read = (name: string) => {
    const value = headers?.[name];
    return value === undefined ? undefined : Number(value);
  };
  const limit = read("x-ratelimit-limit");
  const remaining = read("x-ratelimit-remaining");
  const reset = read("x-ratelimit-reset");
  if (limit === undefined || remaining === undefined || reset === undefined) return undefined;
  if (![limit, remaining, reset].every(Number.isFinite)) return undefined;
  return { limit, remaining, resetAt: reset * 1000, resource: String(headers?.["x-ratelimit-resource"] ?? "core") };
}

/** "12:34 UTC (in 17 min)" */
export function resetTime(resetAt: number, now = Date.now()): string {
  const at = new Date(resetAt).toISOString().slice(11, 16);
  const minutes = Math.max(0, Math.ceil((resetAt - now) / 60_000));
  return `${at} UTC (in ${minutes} min)`;
}

/** The line every answer ends with, so a caller can pace itself. */
export function rateLimitNote(limit: RateLimit | undefined, now = Date.now()): string | undefined {
  if (!limit) return undefined;
  return `[GitHub rate limit (${limit.resource}): ${limit.remaining} of ${limit.limit} requests left; resets at ${resetTime(limit.resetAt, now)}]`;
}
