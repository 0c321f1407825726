import type { Redis } from "ioredis";
import type { SessionChange, SessionMessage, SessionRecord, SessionStore } from "mcpkit/server";
import { Channel } from "./channel.js";

export interface RedisSessionStoreOptions {
  /** Prefix of every key and channel (default "mcpkit:"): clusters sharing a Redis use different ones. */
  prefix?: string;
  /** A pub/sub connection failed or a watcher threw (default: printed to stderr). */
  onError?: (error: unknown) => void;
  /** Hears the pub/sub connection go down and come back (then connection losses are not errors). */
  onConnection?: (up: boolean, error?: Error) => void;
}

/** Deletes a record and, if it was there, tells every node: one round trip, no race. */
const DELETE_AND_TELL = `
if redis.call('del', KEYS[1]) == 1 then
  redis.call('publish', ARGV[1], ARGV[2])
  return 1
end
return 0`;

/**
 * Sessions in Redis: one string key per session holding its record as JSON, with a
 * PEXPIRE ttl, so idle sessions expire in Redis itself and no node sweeps. Saves and
 * deletions are published on one channel, so every node's copy of a session follows.
 * Costs: save = SET PX + PUBLISH (one round trip), load = GET, touch = PEXPIRE,
 * delete = one script call, relay = PUBLISH, heartbeat = SET PX (once a second per node).
 */
export class RedisSessionStore implements SessionStore {
  private readonly redis: Redis;
  private readonly prefix: string;
  private readonly channel: Channel;

  constructor(redis: Redis, options: RedisSessionStoreOptions = {}) {
    this.redis = redis;
    this.prefix = options.prefix ?? "mcpkit:";
    const onError = options.onError ?? report;
    this.channel = new Channel(redis, `${this.prefix}sessions`, onError, options.onConnection);
  }

  /** Resolves once this store hears changes made by other nodes. */
  get ready(): Promise<void> {
    return this.channel.ready;
  }

  async save(record: SessionRecord, ttlMs: number): Promise<void> {
    const change: SessionChange = { id: record.id, kind: "saved" };
    const results = await this.redis
      .multi()
      .set(this.key(record.id), JSON.stringify(record), "PX", Math.max(1, Math.round(ttlMs)))
      .publish(this.channel.name, JSON.stringify(change))
      .exec();
    const failed = results?.find(([error]) => error);
    if (failed) throw failed[0];
  }

  async load(id: string): Promise<SessionRecord | undefined> {
    const json = await this.redis.get(this.key(id));
    return json === null ? undefined : (JSON.parse(json) as SessionRecord);
  }

  async touch(id: string, ttlMs: number): Promise<boolean> {
    return (await this.redis.pexpire(this.key(id), Math.max(1, Math.round(ttlMs)))) === 1;
  }

  async delete(id: string): Promise<boolean> {
    const change: SessionChange = { id, kind: "ended" };
    const deleted = await this.redis.eval(DELETE_AND_TELL, 1, this.key(id), this.channel.name, JSON.stringify(change));
    return deleted === 1;
  }

  async heartbeat(node: string, ttlMs: number): Promise<void> {
    await this.redis.set(`${this.prefix}node:${node}`, "1", "PX", Math.max(1, Math.round(ttlMs)));
  }

  async alive(node: string): Promise<boolean> {
    return (await this.redis.exists(`${this.prefix}node:${node}`)) === 1;
  }

  async relay(message: SessionMessage): Promise<void> {
    await this.redis.publish(this.channel.name, JSON.stringify(message));
  }

  watch(listener: (change: SessionChange) => void): () => void {
    return this.channel.listen((message) => listener(JSON.parse(message) as SessionChange));
  }

  /** Stops listening; the command connection is the caller's. */
  close(): Promise<void> {
    return this.channel.close();
  }

  private key(id: string): string {
    return `${this.prefix}session:${id}`;
  }
}

export const report = (error: unknown) => process.stderr.write(`mcpkit/redis: ${String(error)}\n`);
