import type { Redis } from "ioredis";
import { applyTaskPatch, type TaskPage, type TaskPatch, type TaskRecord, type TaskStore } from "mcpkit/server";
import { Channel } from "./channel.js";
import { report } from "./session-store.js";

export interface RedisTaskStoreOptions {
  /** Prefix of every key and channel (default "mcpkit:"): clusters sharing a Redis use different ones. */
  prefix?: string;
  /** The clock TTLs are measured with (default Date.now); tests inject one. */
  now?: () => number;
  /** A watcher threw or the pub/sub connection failed (default: printed to stderr). */
  onError?: (error: unknown) => void;
  /** Hears the pub/sub connection go down and come back (then connection losses are not errors). */
  onConnection?: (up: boolean, error?: Error) => void;
}

/** How many times an update retries when another node changed the task meanwhile. */
const MAX_RETRIES = 50;

/**
 * Compare and set: writes the task (and tells every node) only if nobody changed it since
 * it was read. KEYS[1] the task; ARGV: as read, as written, expiry in ms ("" for none), channel.
 */
const SWAP_AND_TELL = `
if redis.call('get', KEYS[1]) ~= ARGV[1] then return 0 end
if ARGV[3] == '' then redis.call('set', KEYS[1], ARGV[2])
else redis.call('set', KEYS[1], ARGV[2], 'PX', ARGV[3]) end
redis.call('publish', ARGV[4], ARGV[2])
return 1`;
const TERMINAL = new Set(["completed", "failed", "cancelled"]);

/**
 * Tasks in Redis, so a task created on one node is polled, answered and cancelled on any
 * other, and outlives the node that runs it. One string key per task (its record as
 * JSON); one sorted set per owner, scored by a shared counter, for tasks/list in creation
 * order; every change published on one channel, which is how `watch` hears changes made
 * on other nodes. A task's Redis expiry follows its TTL, so nothing sweeps.
 * Costs: create = SET NX, INCR, ZADD; get = GET; update = GET and one script call (compare,
 * SET, PUBLISH), again when another node changed the task in between; list = ZRANGE, MGET.
 */
export class RedisTaskStore implements TaskStore {
  private readonly redis: Redis;
  private readonly prefix: string;
  private readonly now: () => number;
  private readonly channel: Channel;
  private readonly watchers = new Map<string, Set<(task: TaskRecord) => void>>();
  private readonly onError: (error: unknown) => void;

  constructor(redis: Redis, options: RedisTaskStoreOptions = {}) {
    this.redis = redis;
    this.prefix = options.prefix ?? "mcpkit:";
    this.now = options.now ?? Date.now;
    this.onError = options.onError ?? report;
    this.channel = new Channel(redis, `${this.prefix}tasks`, this.onError, options.onConnection);
    this.channel.listen((message) => this.heard(message));
  }

  /** Resolves once this store hears changes made by other nodes. */
  get ready(): Promise<void> {
    return this.channel.ready;
  }

  async create(task: TaskRecord): Promise<void> {
    const json = JSON.stringify(task);
    const ttl = this.expiry(task);
    const key = this.key(task.taskId);
    const created = await (ttl === undefined
      ? this.redis.set(key, json, "NX")
      : this.redis.set(key, json, "PX", ttl, "NX"));
    if (created !== "OK") throw new Error(`Task ${task.taskId} exists already`);
    const order = await this.redis.incr(`${this.prefix}tasks:order`);
    await this.redis.zadd(this.ownerKey(task.owner), order, task.taskId);
  }

  async get(taskId: string): Promise<TaskRecord | undefined> {
    return this.live(await this.redis.get(this.key(taskId)));
  }

  async update(taskId: string, patch: TaskPatch): Promise<TaskRecord | undefined> {
    const key = this.key(taskId);
    for (let attempt = 0; attempt < MAX_RETRIES; attempt++) {
      const read = await this.redis.get(key);
      const task = this.live(read);
      if (!task) return undefined;
      if (TERMINAL.has(task.status)) return task;
      applyTaskPatch(task, structuredClone(patch), this.now());
      const json = JSON.stringify(task);
      const ttl = this.expiry(task);
      const swapped = await this.redis.eval(SWAP_AND_TELL, 1, key, read as string, json, ttl ?? "", this.channel.name);
      if (swapped === 1) return task;
    }
    throw new Error(`Task ${taskId} kept changing under this update (${MAX_RETRIES} tries)`);
  }

  async list(owner: string | undefined, options: { cursor?: string; limit?: number } = {}): Promise<TaskPage> {
    const limit = options.limit ?? 100;
    const index = this.ownerKey(owner);
    let start = 0;
    if (options.cursor !== undefined) {
      const rank = await this.redis.zrank(index, options.cursor);
      if (rank === null) throw new RangeError(`Unknown cursor ${options.cursor}`);
      start = rank + 1;
    }
    const ids = await this.redis.zrange(index, String(start), "-1");
    const tasks: TaskRecord[] = [];
    const gone: string[] = [];
    let next: string | undefined;
    for (let i = 0; i < ids.length && next === undefined; i += limit) {
      const chunk = ids.slice(i, i + limit);
      const records = await this.redis.mget(...chunk.map((id) => this.key(id)));
      for (const [n, json] of records.entries()) {
        const task = this.live(json);
        if (!task) gone.push(chunk[n] as string);
        else if (tasks.length < limit) tasks.push(task);
        else {
          next = tasks.at(-1)?.taskId;
          break;
        }
      }
    }
    // Expired tasks leave the index lazily, here (the cursor is the last task shown, which stays).
    if (gone.length > 0) await this.redis.zrem(index, ...gone);
    return { tasks, ...(next !== undefined && { nextCursor: next }) };
  }

  watch(taskId: string, listener: (task: TaskRecord) => void): () => void {
    let set = this.watchers.get(taskId);
    if (!set) {
      set = new Set();
      this.watchers.set(taskId, set);
    }
    set.add(listener);
    const listeners = set;
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0) this.watchers.delete(taskId);
    };
  }

  /** Stops listening; the command connection is the caller's. */
  close(): Promise<void> {
    this.watchers.clear();
    return this.channel.close();
  }

  private heard(message: string): void {
    const task = JSON.parse(message) as TaskRecord;
    for (const listener of [...(this.watchers.get(task.taskId) ?? [])]) {
      try {
        listener(structuredClone(task));
      } catch (error) {
        this.onError(error);
      }
    }
  }

  /** The record, unless it is missing or past its TTL on this store's clock. */
  private live(json: string | null): TaskRecord | undefined {
    if (json === null) return undefined;
    const task = JSON.parse(json) as TaskRecord;
    return task.ttlMs !== null && task.createdAt + task.ttlMs <= this.now() ? undefined : task;
  }

  /** What is left of the task's TTL, for Redis to drop the key then (undefined: kept until deleted). */
  private expiry(task: TaskRecord): number | undefined {
    if (task.ttlMs === null) return undefined;
    return Math.max(1, Math.ceil(task.createdAt + task.ttlMs - this.now()));
  }

  private key(taskId: string): string {
    return `${this.prefix}task:${taskId}`;
  }

  private ownerKey(owner: string | undefined): string {
    return `${this.prefix}tasks:owner:${owner === undefined ? "" : `=${owner}`}`;
  }
}
