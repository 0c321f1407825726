import { oauthError } from "./http.js";
import type { Limits, RateName } from "./limits.js";
import { errorPage } from "./pages.js";
import { newId } from "./seal.js";
import type { AuthorizationStore } from "./store.js";

/** A caller over its rate: the answer says why and when to come back (an hour at most). */
export interface Refusal {
  message: string;
  retryAfterSec: number;
}

/** The refusal as an OAuth error answer (RFC 6749 §5.2, RFC 7591 §3.2.2): 429 `temporarily_unavailable`, with Retry-After. */
export const refusedJson = (refusal: Refusal) =>
  oauthError(429, "temporarily_unavailable", refusal.message, { "retry-after": String(refusal.retryAfterSec) });

/** The refusal as a page, for the person's browser (before the client's redirect URI is checked). */
export const refusedPage = (refusal: Refusal) =>
  errorPage("Too many requests", refusal.message, 429, { "retry-after": String(refusal.retryAfterSec) });

/**
 * How many requests each endpoint's rate remembers, of every caller together: a flood from
 * ever more addresses costs the server no more than this. Beyond it, the oldest request is
 * forgotten (its caller is let in a little sooner), so a caller sending more than the rest
 * is still refused at its rate.
 */
export const RATE_MEMORY = 20_000;

const WHAT: Record<RateName, string> = {
  register: "registrations",
  signIn: "sign-in requests",
  token: "token requests",
  revoke: "revocations",
};

/** "a minute", "an hour", "10 minutes". */
function span(seconds: number): string {
  for (const [unit, size] of [
    ["hour", 3600],
    ["minute", 60],
  ] as const) {
    if (seconds % size === 0 && seconds >= size)
      return seconds === size ? `${unit === "hour" ? "an" : "a"} ${unit}` : `${seconds / size} ${unit}s`;
  }
  return `${seconds} seconds`;
}

/** "in 45 seconds", "in 3 minutes" (rounded up). */
const after = (seconds: number) =>
  seconds < 120 ? `in ${seconds} second${seconds === 1 ? "" : "s"}` : `in ${Math.ceil(seconds / 60)} minutes`;

/** Counts one request of `caller` to an endpoint; the refusal when it is over the endpoint's rate. */
export async function overRate(
  store: AuthorizationStore,
  limits: Limits,
  name: RateName,
  caller: string | undefined,
): Promise<Refusal | undefined> {
  const rate = limits.rates[name];
  if (!rate || caller === undefined) return undefined;
  // Each request is a member of its own, staying the window: a sliding window.
  const enlisted = await store.enlist(newId(), caller, {
    pool: `rate:${name}`,
    max: RATE_MEMORY,
    maxPerOwner: rate.max,
    ttlMs: rate.windowSec * 1000,
    rate: true,
  });
  if (enlisted.admitted) return undefined;
  const retryAfterSec = Math.max(1, Math.ceil(enlisted.retryAfterMs / 1000));
  return {
    message: `Too many ${WHAT[name]} from your address (at most ${rate.max} in ${span(rate.windowSec)}): try again ${after(retryAfterSec)}`,
    retryAfterSec,
  };
}
