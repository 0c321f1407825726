import { memoryPools } from "./memory-pools.js";
import type { Admission, AuthorizationStore, GrantRecord, RecordKind, Rotation, SigningKeyRecord } from "./store.js";

interface Entry {
  value: string;
  until: number;
  used: boolean;
}

/** What a memoryAuthorizationStore holds now: entries by kind, and the characters of what it keeps for the server. */
export interface HeldByStore {
  /** Clients, sign-ins under way, codes. */
  records: number;
  /** Characters of the records' values and the grants' sealed details. */
  characters: number;
  /** Grants. */
  grants: number;
  /** Refresh tokens (each issued, spent ones included) naming their grant. */
  refreshTokens: number;
  /** Members of admit's groups (metadata documents kept). */
  counted: number;
  /** Members of enlist's pools (unused registrations, sign-ins, used clients, requests counted against a rate). */
  pooled: number;
}

/** An AuthorizationStore in this process, which says what it holds (to measure a server's memory). */
export interface MemoryAuthorizationStore extends AuthorizationStore {
  /** What it holds now, expired entries not yet dropped included: the memory they take. */
  held(): HeldByStore;
}

/**
 * An AuthorizationStore in this process: for one node, and for tests. Expired entries are
 * dropped as they are met and, every thousand writes, all at once.
 */
export function memoryAuthorizationStore(options: { now?: () => number } = {}): MemoryAuthorizationStore {
  const now = options.now ?? Date.now;
  const records = new Map<string, Entry>();
  const grants = new Map<string, GrantRecord & { current: string }>();
  const refresh = new Map<string, { grantId: string; until: number }>();
  const keys = new Map<string, SigningKeyRecord>();
  /** admit's groups: member → when it leaves. */
  const groups = new Map<string, Map<string, number>>();
  const pools = memoryPools(now);
  let writes = 0;

  const sweep = () => {
    if (++writes % 1000 !== 0) return;
    pools.sweep();
    const t = now();
    for (const [k, e] of records) if (e.until <= t) records.delete(k);
    for (const [k, g] of grants) if (g.expiresAt <= t) grants.delete(k);
    for (const [k, r] of refresh) if (r.until <= t) refresh.delete(k);
    for (const [name, members] of groups) {
      for (const [m, until] of members) if (until <= t) members.delete(m);
      if (members.size === 0) groups.delete(name);
    }
  };
  /** Whether `group` has room for `member`; else in how long its oldest member leaves. Expired members are dropped only when full. */
  const roomIn = (group: string, member: string, max: number): true | number => {
    const members = groups.get(group);
    const t = now();
    if (!members || members.size < max || (members.get(member) ?? 0) > t) return true;
    let oldest = Number.POSITIVE_INFINITY;
    for (const [m, until] of members) {
      if (until <= t) members.delete(m);
      else oldest = Math.min(oldest, until);
    }
    return members.size < max ? true : oldest - t;
  };
  const live = (key: string) => {
    const entry = records.get(key);
    if (entry && entry.until <= now()) records.delete(key);
    return entry && entry.until > now() ? entry : undefined;
  };
  const liveGrant = (id: string) => {
    const grant = grants.get(id);
    if (grant && grant.expiresAt <= now()) grants.delete(id);
    return grant && grant.expiresAt > now() ? grant : undefined;
  };
  const plain = ({ current: _, ...grant }: GrantRecord & { current: string }): GrantRecord => grant;

  return {
    async put(kind: RecordKind, key, value, ttlMs) {
      sweep();
      records.set(`${kind}:${key}`, { value, until: now() + ttlMs, used: false });
    },
    async get(kind, key) {
      return live(`${kind}:${key}`)?.value;
    },
    async delete(kind, key) {
      records.delete(`${kind}:${key}`);
    },
    async consume(kind, key) {
      const entry = live(`${kind}:${key}`);
      if (!entry) return undefined;
      const first = !entry.used;
      entry.used = true;
      return { value: entry.value, first };
    },
    async createGrant(grant, refreshHash) {
      sweep();
      grants.set(grant.id, { ...grant, current: refreshHash });
      refresh.set(refreshHash, { grantId: grant.id, until: grant.expiresAt });
    },
    async grant(id) {
      const grant = liveGrant(id);
      return grant && plain(grant);
    },
    async rotateRefresh(presented, next): Promise<Rotation> {
      const entry = refresh.get(presented);
      const grant = entry && entry.until > now() ? liveGrant(entry.grantId) : undefined;
      if (!entry || !grant) return { status: "unknown" };
      if (grant.current !== presented) {
        grants.delete(grant.id);
        return { status: "reused", grantId: grant.id };
      }
      grant.current = next;
      refresh.set(next, { grantId: grant.id, until: grant.expiresAt });
      return { status: "rotated", grant: plain(grant) };
    },
    async grantOfRefresh(hash) {
      const entry = refresh.get(hash);
      return entry && entry.until > now() ? entry.grantId : undefined;
    },
    async updateGrant(id, sealed) {
      const grant = liveGrant(id);
      if (!grant) return false;
      grant.sealed = sealed;
      return true;
    },
    async revokeGrant(id) {
      return liveGrant(id) !== undefined && grants.delete(id);
    },
    async admit(member, counts): Promise<Admission> {
      for (const { group, max } of counts) {
        const room = roomIn(group, member, max);
        if (room !== true) return { admitted: false, group, retryAfterMs: room };
      }
      sweep();
      for (const { group, ttlMs } of counts) {
        let members = groups.get(group);
        if (!members) {
          members = new Map();
          groups.set(group, members);
        }
        members.set(member, now() + ttlMs);
      }
      return { admitted: true };
    },
    async enlist(member, owner, limit) {
      sweep();
      return pools.enlist(member, owner, limit);
    },
    async leave(pool, member) {
      return pools.leave(pool, member);
    },
    held() {
      let characters = 0;
      for (const entry of records.values()) characters += entry.value.length;
      for (const grant of grants.values()) characters += grant.sealed.length;
      let counted = 0;
      for (const members of groups.values()) counted += members.size;
      return {
        records: records.size,
        characters,
        grants: grants.size,
        refreshTokens: refresh.size,
        counted,
        pooled: pools.size(),
      };
    },
    async signingKeys() {
      return [...keys.values()].sort((a, b) => a.createdAt - b.createdAt);
    },
    async addSigningKey(key) {
      keys.set(key.kid, key);
    },
    async removeSigningKey(kid) {
      keys.delete(kid);
    },
  };
}
