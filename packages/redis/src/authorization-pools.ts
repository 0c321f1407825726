import type { Redis } from "ioredis";
import type { Enlistment, PoolLimit } from "mcpkit/auth";

/**
 * AuthorizationStore's pools in Redis, four keys a pool (KEYS in this order): its members
 * scored by when they leave (a sorted set: with one ttl a pool, also the oldest first), each member's place (a hash: member → place),
 * its owners scored by how many members each holds (a sorted set), and the places (a
 * sorted set read by name: `owner:enlisted-at:member`, so an owner's oldest is the first
 * name after `owner:`). Owners are hex-encoded, so no owner's name runs into another's.
 * Every call first lets expired members leave, on Redis's clock; the keys expire with the
 * last member. Shared by both scripts: drop(member), oldest(owner), now.
 */
const COMMON = `
local t = redis.call('time')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local function drop(m)
  local place = redis.call('hget', KEYS[2], m)
  if place then
    local o = string.match(place, '^([^:]*):')
    if tonumber(redis.call('zincrby', KEYS[3], -1, o)) <= 0 then redis.call('zrem', KEYS[3], o) end
    redis.call('zrem', KEYS[4], place)
    redis.call('hdel', KEYS[2], m)
  end
  redis.call('zrem', KEYS[1], m)
end
local function oldest(o)
  if not o then return nil end
  local first = redis.call('zrangebylex', KEYS[4], '[' .. o .. ':', '(' .. o .. ';', 'LIMIT', 0, 1)[1]
  return first and string.match(first, '^[^:]*:[^:]*:(.*)$')
end
for _, m in ipairs(redis.call('zrangebyscore', KEYS[1], '-inf', now)) do drop(m) end
`;

/**
 * ARGV: member, owner (hex), max, maxPerOwner (0: none), ttl ms, "rate" or "records".
 * Returns {1, evicted…}, or {0, ms until the owner's oldest leaves}.
 */
const ENLIST = `${COMMON}
local member, owner = ARGV[1], ARGV[2]
local max, share, ttl = tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local evicted = {}
if redis.call('zscore', KEYS[1], member) then
  drop(member)
else
  if share > 0 and tonumber(redis.call('zscore', KEYS[3], owner) or '0') >= share then
    local own = oldest(owner)
    if ARGV[6] == 'rate' then return {0, tonumber(redis.call('zscore', KEYS[1], own)) - now} end
    drop(own)
    table.insert(evicted, own)
  end
  if redis.call('zcard', KEYS[1]) >= max then
    local other
    if ARGV[6] == 'rate' then other = redis.call('zrange', KEYS[1], 0, 0)[1]
    else other = oldest(redis.call('zrevrange', KEYS[3], 0, 0)[1]) end
    if other then
      drop(other)
      table.insert(evicted, other)
    end
  end
end
local place = owner .. ':' .. string.format('%016.0f', now) .. ':' .. member
redis.call('zadd', KEYS[1], now + ttl, member)
redis.call('hset', KEYS[2], member, place)
redis.call('zincrby', KEYS[3], 1, owner)
redis.call('zadd', KEYS[4], 0, place)
local last = tonumber(redis.call('zrange', KEYS[1], -1, -1, 'WITHSCORES')[2])
for i = 1, 4 do redis.call('pexpireat', KEYS[i], last) end
table.insert(evicted, 1, 1)
return evicted`;

/** ARGV: member. Returns 1 when it was there unexpired (it leaves), else 0. */
const LEAVE = `${COMMON}
if not redis.call('zscore', KEYS[1], ARGV[1]) then return 0 end
drop(ARGV[1])
return 1`;

/** The four keys of a pool, under the store's prefix. */
const keysOf = (prefix: string, pool: string) =>
  ["members", "places", "owners", "order"].map((part) => `${prefix}pool:${pool}:${part}`);

export async function enlistIn(
  redis: Redis,
  prefix: string,
  member: string,
  owner: string,
  limit: PoolLimit,
): Promise<Enlistment> {
  const result = (await redis.eval(
    ENLIST,
    4,
    ...keysOf(prefix, limit.pool),
    member,
    Buffer.from(owner, "utf8").toString("hex"),
    limit.max,
    limit.maxPerOwner ?? 0,
    Math.max(1, Math.round(limit.ttlMs)),
    limit.rate ? "rate" : "records",
  )) as [number, ...(string | number)[]];
  const [admitted, ...rest] = result;
  if (admitted === 0) return { admitted: false, retryAfterMs: Number(rest[0] ?? 0) };
  return { admitted: true, evicted: rest.map(String) };
}

export async function leaveFrom(redis: Redis, prefix: string, pool: string, member: string): Promise<boolean> {
  return (await redis.eval(LEAVE, 4, ...keysOf(prefix, pool), member)) === 1;
}
