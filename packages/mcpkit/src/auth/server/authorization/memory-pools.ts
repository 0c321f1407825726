import type { Enlistment, PoolLimit } from "./store.js";

/** How many members each owner holds, and the owner holding the most, in constant time (owners bucketed by count). */
function ownerCounts() {
  const count = new Map<string, number>();
  const byCount = new Map<number, Set<string>>();
  let top = 0;
  const move = (owner: string, by: 1 | -1) => {
    const from = count.get(owner) ?? 0;
    const to = from + by;
    const bucket = byCount.get(from);
    bucket?.delete(owner);
    if (bucket?.size === 0) byCount.delete(from);
    if (to > 0) {
      count.set(owner, to);
      const next = byCount.get(to) ?? new Set<string>();
      next.add(owner);
      byCount.set(to, next);
    } else count.delete(owner);
    // A count moves by one at a time, so the top moves by one at most.
    top = Math.max(top, to);
    while (top > 0 && !byCount.has(top)) top--;
  };
  return {
    of: (owner: string) => count.get(owner) ?? 0,
    add: (owner: string) => move(owner, 1),
    remove: (owner: string) => move(owner, -1),
    largest: (): string | undefined => (top > 0 ? byCount.get(top)?.values().next().value : undefined),
  };
}

interface Pool {
  /** Every member, first enlisted first: with one ttl per pool, also first to expire. */
  members: Map<string, { owner: string; until: number }>;
  /** Each owner's members, oldest first. */
  owned: Map<string, Set<string>>;
  counts: ReturnType<typeof ownerCounts>;
}

/**
 * AuthorizationStore's pools in this process (memory-store.ts): enlist and leave as the
 * interface says. Expired members leave as they reach the front of their pool, which is
 * where they are, since a pool's members all stay the same ttl.
 */
export function memoryPools(now: () => number) {
  const pools = new Map<string, Pool>();
  const poolOf = (name: string): Pool => {
    let pool = pools.get(name);
    if (!pool) {
      pool = { members: new Map(), owned: new Map(), counts: ownerCounts() };
      pools.set(name, pool);
    }
    return pool;
  };
  const drop = (pool: Pool, member: string) => {
    const entry = pool.members.get(member);
    if (!entry) return;
    pool.members.delete(member);
    const mine = pool.owned.get(entry.owner);
    mine?.delete(member);
    if (mine?.size === 0) pool.owned.delete(entry.owner);
    pool.counts.remove(entry.owner);
  };
  const purge = (pool: Pool) => {
    const t = now();
    for (const [member, entry] of pool.members) {
      if (entry.until > t) break;
      drop(pool, member);
    }
  };
  const oldestOf = (pool: Pool, owner: string | undefined): string | undefined =>
    owner === undefined ? undefined : pool.owned.get(owner)?.values().next().value;

  return {
    enlist(member: string, owner: string, limit: PoolLimit): Enlistment {
      const pool = poolOf(limit.pool);
      purge(pool);
      const evicted: string[] = [];
      if (pool.members.has(member)) drop(pool, member);
      else {
        if (limit.maxPerOwner !== undefined && pool.counts.of(owner) >= limit.maxPerOwner) {
          const oldest = oldestOf(pool, owner) as string;
          if (limit.rate) return { admitted: false, retryAfterMs: (pool.members.get(oldest)?.until ?? now()) - now() };
          drop(pool, oldest);
          evicted.push(oldest);
        }
        if (pool.members.size >= limit.max) {
          const oldest = limit.rate ? pool.members.keys().next().value : oldestOf(pool, pool.counts.largest());
          if (oldest !== undefined) {
            drop(pool, oldest);
            evicted.push(oldest);
          }
        }
      }
      pool.members.set(member, { owner, until: now() + limit.ttlMs });
      const mine = pool.owned.get(owner) ?? new Set<string>();
      mine.add(member);
      pool.owned.set(owner, mine);
      pool.counts.add(owner);
      return { admitted: true, evicted };
    },
    leave(name: string, member: string): boolean {
      const pool = pools.get(name);
      const entry = pool?.members.get(member);
      if (!pool || !entry) return false;
      drop(pool, member);
      return entry.until > now();
    },
    /** Expired members of every pool leave. */
    sweep() {
      for (const pool of pools.values()) purge(pool);
    },
    /** Members held, in every pool. */
    size(): number {
      let total = 0;
      for (const pool of pools.values()) total += pool.members.size;
      return total;
    },
  };
}
