/**
 * Whether one more session may open, and which sessions make room for it. Sessions are
 * capped in total and per client (its principal when authenticated, else its address),
 * so that one client cannot take them all; a cap that is reached first gives up sessions
 * that were opened and never used (no request after initialize, nothing connected), the
 * oldest first, before refusing.
 */

export interface AdmissionLimits {
  maxSessions: number;
  /** Per client; Infinity when clients cannot be told apart. */
  maxSessionsPerClient: number;
}

/** What the policy needs to know of a session. */
export interface SessionFacts {
  /** Who opened it: `principal:…` or `address:…`, or undefined when unknown. */
  client: string | undefined;
  /** No request since initialize, and no stream connected now. */
  unused: boolean;
  lastActivity: number;
}

export type Admission = { evict: string[] } | { refuse: string };

const NONE: { evict: string[] } = { evict: [] };

/**
 * Decides for a new session of `client`, who holds `own` sessions now. Costs nothing while
 * no cap is reached; only then are the sessions searched for ones to evict.
 */
export function admitSession<T>(
  sessions: ReadonlyMap<string, T>,
  factsOf: (session: T) => SessionFacts,
  client: string | undefined,
  own: number,
  limits: AdmissionLimits,
): Admission {
  const evict: string[] = [];
  if (client !== undefined && Number.isFinite(limits.maxSessionsPerClient)) {
    const over = own - limits.maxSessionsPerClient + 1;
    if (over > 0) {
      const spare = oldestUnused(sessions, factsOf, over, (f) => f.client === client);
      if (spare.length < over) {
        return {
          refuse: `Too many sessions from this client (the limit is ${limits.maxSessionsPerClient}): end the ones you no longer use with DELETE`,
        };
      }
      evict.push(...spare);
    }
  }
  const over = sessions.size - evict.length - limits.maxSessions + 1;
  if (over > 0) {
    // Rare: every session is searched, the oldest unused ones first.
    const taken = new Set(evict);
    const spare = oldestUnused(sessions, factsOf, over + taken.size, () => true).filter((id) => !taken.has(id));
    if (spare.length < over) return { refuse: `Too many sessions (the limit is ${limits.maxSessions})` };
    evict.push(...spare.slice(0, over));
  }
  return evict.length === 0 ? NONE : { evict };
}

function oldestUnused<T>(
  sessions: ReadonlyMap<string, T>,
  factsOf: (session: T) => SessionFacts,
  count: number,
  include: (facts: SessionFacts) => boolean,
): string[] {
  const candidates: [string, number][] = [];
  for (const [id, session] of sessions) {
    const facts = factsOf(session);
    if (facts.unused && include(facts)) candidates.push([id, facts.lastActivity]);
  }
  return candidates
    .sort((a, b) => a[1] - b[1])
    .slice(0, count)
    .map(([id]) => id);
}
