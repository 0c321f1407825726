import type { Redis } from "ioredis";
import type {
  Admission,
  AuthorizationStore,
  Enlistment,
  GrantRecord,
  GroupLimit,
  PoolLimit,
  RecordKind,
  Rotation,
  SigningKeyRecord,
} from "mcpkit/auth";
import { enlistIn, leaveFrom } from "./authorization-pools.js";

export interface RedisAuthorizationStoreOptions {
  /** Prefix of every key (default "mcpkit:"): deployments sharing a Redis use different ones. */
  prefix?: string;
}

/** The first use of a record marks it used; later uses see the mark. KEYS: record, mark. */
const CONSUME = `
local value = redis.call('get', KEYS[1])
if not value then return nil end
local ttl = redis.call('pttl', KEYS[1])
if ttl < 1 then ttl = 1 end
if redis.call('set', KEYS[2], '1', 'NX', 'PX', ttl) then return {value, 1} end
return {value, 0}`;

/**
 * Refresh token rotation. KEYS: the grant, the next token's index entry. ARGV: the
 * presented token's hash, the next one's, the grant id. A presented token that is not the
 * current one ends the grant (reuse detection).
 */
const ROTATE = `
local current = redis.call('hget', KEYS[1], 'current')
if not current then return {'unknown'} end
if current ~= ARGV[1] then
  redis.call('del', KEYS[1])
  return {'reused'}
end
redis.call('hset', KEYS[1], 'current', ARGV[2])
local ttl = redis.call('pttl', KEYS[1])
if ttl < 1 then ttl = 1 end
redis.call('set', KEYS[2], ARGV[3], 'PX', ttl)
return {'rotated', redis.call('hget', KEYS[1], 'grant')}`;

/** Replaces a live grant's sealed details. KEYS: the grant. ARGV: the grant's JSON. */
const UPDATE = `
if redis.call('exists', KEYS[1]) == 0 then return 0 end
redis.call('hset', KEYS[1], 'grant', ARGV[1])
return 1`;

/**
 * A member into every group, or none. KEYS: the groups, each a sorted set of members scored
 * by when they leave. ARGV: the member, then each group's max and ttl (ms). Redis's clock,
 * so that every node counts the same windows. Returns {0}, or the full group's index and
 * in how long its oldest member leaves.
 */
const ADMIT = `
local t = redis.call('time')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local member = ARGV[1]
for i, key in ipairs(KEYS) do
  redis.call('zremrangebyscore', key, '-inf', now)
  if not redis.call('zscore', key, member) and redis.call('zcard', key) >= tonumber(ARGV[2 * i]) then
    local oldest = redis.call('zrange', key, 0, 0, 'WITHSCORES')
    return {i, tonumber(oldest[2]) - now}
  end
end
for i, key in ipairs(KEYS) do
  redis.call('zadd', key, now + tonumber(ARGV[2 * i + 1]), member)
  local last = redis.call('zrange', key, -1, -1, 'WITHSCORES')
  redis.call('pexpireat', key, tonumber(last[2]))
end
return {0}`;

/**
 * An authorization server's state in Redis, shared by every node: each record a string
 * key with its PX expiry (and a second key marking it used, expiring with it); each grant
 * a hash (the record and its current refresh token's hash) expiring at the grant's end,
 * and each refresh token ever issued an index key naming its grant, expiring with it; the
 * signing keys one hash; each group `admit` counts in a sorted set of its members by when
 * they leave, expiring with the last; each pool `enlist` keeps in four keys
 * (authorization-pools.ts). What it holds is hashes and sealed text (the server seals before
 * storing). Costs: put = SET + DEL, consume, admit, enlist, leave = one script call, rotate =
 * GET + one script call.
 */
export class RedisAuthorizationStore implements AuthorizationStore {
  private readonly redis: Redis;
  private readonly prefix: string;

  constructor(redis: Redis, options: RedisAuthorizationStoreOptions = {}) {
    this.redis = redis;
    this.prefix = `${options.prefix ?? "mcpkit:"}auth:`;
  }

  private record(kind: RecordKind, key: string) {
    return `${this.prefix}${kind}:${key}`;
  }
  private used(kind: RecordKind, key: string) {
    return `${this.prefix}used:${kind}:${key}`;
  }
  private grantKey(id: string) {
    return `${this.prefix}grant:${id}`;
  }
  private refreshKey(hash: string) {
    return `${this.prefix}refresh:${hash}`;
  }

  async put(kind: RecordKind, key: string, value: string, ttlMs: number): Promise<void> {
    const results = await this.redis
      .multi()
      .set(this.record(kind, key), value, "PX", Math.max(1, Math.round(ttlMs)))
      .del(this.used(kind, key))
      .exec();
    const failed = results?.find(([error]) => error);
    if (failed) throw failed[0];
  }

  async get(kind: RecordKind, key: string): Promise<string | undefined> {
    return (await this.redis.get(this.record(kind, key))) ?? undefined;
  }

  async delete(kind: RecordKind, key: string): Promise<void> {
    await this.redis.del(this.record(kind, key), this.used(kind, key));
  }

  async consume(kind: RecordKind, key: string): Promise<{ value: string; first: boolean } | undefined> {
    const result = (await this.redis.eval(CONSUME, 2, this.record(kind, key), this.used(kind, key))) as
      | [string, number]
      | null;
    return result ? { value: result[0], first: result[1] === 1 } : undefined;
  }

  async createGrant(grant: GrantRecord, refreshHash: string): Promise<void> {
    const results = await this.redis
      .multi()
      .hset(this.grantKey(grant.id), "grant", JSON.stringify(grant), "current", refreshHash)
      .pexpireat(this.grantKey(grant.id), grant.expiresAt)
      .set(this.refreshKey(refreshHash), grant.id, "PXAT", grant.expiresAt)
      .exec();
    const failed = results?.find(([error]) => error);
    if (failed) throw failed[0];
  }

  async grant(id: string): Promise<GrantRecord | undefined> {
    const json = await this.redis.hget(this.grantKey(id), "grant");
    return json === null ? undefined : (JSON.parse(json) as GrantRecord);
  }

  async rotateRefresh(presented: string, next: string): Promise<Rotation> {
    const grantId = await this.redis.get(this.refreshKey(presented));
    if (grantId === null) return { status: "unknown" };
    const [status, json] = (await this.redis.eval(
      ROTATE,
      2,
      this.grantKey(grantId),
      this.refreshKey(next),
      presented,
      next,
      grantId,
    )) as [string, string | undefined];
    if (status === "rotated") return { status, grant: JSON.parse(json as string) as GrantRecord };
    if (status === "reused") return { status, grantId };
    return { status: "unknown" };
  }

  async grantOfRefresh(hash: string): Promise<string | undefined> {
    return (await this.redis.get(this.refreshKey(hash))) ?? undefined;
  }

  async updateGrant(id: string, sealed: string): Promise<boolean> {
    const grant = await this.grant(id);
    if (!grant) return false;
    return (await this.redis.eval(UPDATE, 1, this.grantKey(id), JSON.stringify({ ...grant, sealed }))) === 1;
  }

  async revokeGrant(id: string): Promise<boolean> {
    return (await this.redis.del(this.grantKey(id))) === 1;
  }

  async admit(member: string, counts: GroupLimit[]): Promise<Admission> {
    const keys = counts.map((c) => `${this.prefix}count:${c.group}`);
    const limits = counts.flatMap((c) => [c.max, Math.max(1, Math.round(c.ttlMs))]);
    const [full, retryAfterMs] = (await this.redis.eval(ADMIT, keys.length, ...keys, member, ...limits)) as [
      number,
      number?,
    ];
    if (full === 0) return { admitted: true };
    return { admitted: false, group: (counts[full - 1] as GroupLimit).group, retryAfterMs: retryAfterMs ?? 0 };
  }

  enlist(member: string, owner: string, limit: PoolLimit): Promise<Enlistment> {
    return enlistIn(this.redis, this.prefix, member, owner, limit);
  }

  leave(pool: string, member: string): Promise<boolean> {
    return leaveFrom(this.redis, this.prefix, pool, member);
  }

  async signingKeys(): Promise<SigningKeyRecord[]> {
    const all = await this.redis.hvals(`${this.prefix}keys`);
    return all.map((json) => JSON.parse(json) as SigningKeyRecord).sort((a, b) => a.createdAt - b.createdAt);
  }

  async addSigningKey(key: SigningKeyRecord): Promise<void> {
    await this.redis.hset(`${this.prefix}keys`, key.kid, JSON.stringify(key));
  }

  async removeSigningKey(kid: string): Promise<void> {
    await this.redis.hdel(`${this.prefix}keys`, kid);
  }
}
