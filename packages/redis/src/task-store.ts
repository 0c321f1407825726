import type { Redis } from "ioredis";
import {
  applyTaskPatch,
  isTerminal,
  TaskLimitError,
  type TaskPage,
  type TaskPatch,
  type TaskQuota,
  type TaskRecord,
  type TaskStore,
  TaskWatchers,
  taskExpired,
} from "mcpkit/server";
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

/**
 * Creates a task in one step: refused if the id exists (-1) or the client's quota is full
 * (0); else stored, indexed for its owner's tasks/list and its client's quota, and, when a
 * node runs it, in that node's running set. An index lives as long as its longest-lived task.
 * KEYS: task, order counter, owner index, client index, running set, nodes with running sets.
 * ARGV: record, ttl ms ("" none), id, now, expiry time ("+inf" none), quota ("" none),
 * whether it has an owner ("1"), node ("" none).
 */
const CREATE = `
if redis.call('exists', KEYS[1]) == 1 then return -1 end
if ARGV[6] ~= '' then
  redis.call('zremrangebyscore', KEYS[4], '-inf', ARGV[4])
  if redis.call('zcard', KEYS[4]) >= tonumber(ARGV[6]) then return 0 end
end
if ARGV[2] == '' then redis.call('set', KEYS[1], ARGV[1])
else redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2]) end
local function index(key, score)
  local existed = redis.call('exists', key)
  redis.call('zadd', key, score, ARGV[3])
  if ARGV[2] == '' then redis.call('persist', key)
  elseif existed == 0 then redis.call('pexpire', key, ARGV[2])
  else
    local left = redis.call('pttl', key)
    if left >= 0 and left < tonumber(ARGV[2]) then redis.call('pexpire', key, ARGV[2]) end
  end
end
if ARGV[7] == '1' then index(KEYS[3], redis.call('incr', KEYS[2])) end
if ARGV[6] ~= '' then index(KEYS[4], ARGV[5]) end
if ARGV[8] ~= '' then
  redis.call('sadd', KEYS[5], ARGV[3])
  redis.call('sadd', KEYS[6], ARGV[8])
end
return 1`;

/**
 * Tasks in Redis, so a task created on one node is polled, answered and cancelled on any
 * other, and outlives the node that runs it. One string key per task (its record as
 * JSON); one sorted set per owner, scored by a shared counter, for tasks/list in creation
 * order; one per quota client, scored by expiry, to count its live tasks; every change
 * published on one channel, which is how `watch` hears changes made on other nodes. A
 * task's Redis expiry follows its TTL, so nothing sweeps. Nodes heartbeat (a key with a
 * PX expiry each) and keep a set of the tasks they run, so a dead node's tasks are found.
 * Costs: create = one script call; get = GET; update = GET and one script call (compare,
 * SET, PUBLISH), again when another node changed the task in between (and SREM when a
 * task a node ran ends); list = ZRANGE, MGET; heartbeat = SET PX; orphans = SMEMBERS and
 * GET per node with running tasks (MGET for a dead one's).
 */
export class RedisTaskStore implements TaskStore {
  private readonly redis: Redis;
  private readonly prefix: string;
  private readonly now: () => number;
  private readonly channel: Channel;
  private readonly watchers: TaskWatchers;
  private readonly onError: (error: unknown) => void;

  constructor(redis: Redis, options: RedisTaskStoreOptions = {}) {
    this.redis = redis;
    this.prefix = options.prefix ?? "mcpkit:";
    this.now = options.now ?? Date.now;
    this.onError = options.onError ?? report;
    this.watchers = new TaskWatchers(this.onError);
    this.channel = new Channel(redis, `${this.prefix}tasks`, this.onError, options.onConnection);
    this.channel.listen((message) => this.heard(message));
  }

  /** Resolves once this store hears changes made by other nodes. */
  get ready(): Promise<void> {
    return this.channel.ready;
  }

  async create(task: TaskRecord, quota?: TaskQuota): Promise<void> {
    const ttl = this.expiry(task);
    const node = task.node ?? "";
    const created = await this.redis.eval(
      CREATE,
      6,
      this.key(task.taskId),
      `${this.prefix}tasks:order`,
      this.ownerKey(task.owner ?? ""),
      `${this.prefix}tasks:client:${quota?.client ?? ""}`,
      this.runningKey(node),
      `${this.prefix}tasks:nodes`,
      JSON.stringify(task),
      ttl ?? "",
      task.taskId,
      this.now(),
      task.ttlMs === null ? "+inf" : task.createdAt + task.ttlMs,
      quota ? quota.max : "",
      task.owner === undefined ? "" : "1",
      node,
    );
    if (created === -1) throw new Error(`Task ${task.taskId} exists already`);
    if (created === 0) throw new TaskLimitError((quota as TaskQuota).max);
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
      if (isTerminal(task.status)) return task;
      applyTaskPatch(task, structuredClone(patch), this.now());
      const json = JSON.stringify(task);
      const ttl = this.expiry(task);
      const swapped = await this.redis.eval(SWAP_AND_TELL, 1, key, read as string, json, ttl ?? "", this.channel.name);
      if (swapped !== 1) continue;
      if (task.node !== undefined && isTerminal(task.status)) await this.redis.srem(this.runningKey(task.node), taskId);
      return task;
    }
    throw new Error(`Task ${taskId} kept changing under this update (${MAX_RETRIES} tries)`);
  }

  async list(owner: string, options: { cursor?: string; limit?: number } = {}): Promise<TaskPage> {
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

  /** The key holds when the lease ends on this store's clock; Redis drops it then too. */
  async heartbeat(node: string, ttlMs: number): Promise<void> {
    const ttl = Math.max(1, Math.round(ttlMs));
    await this.redis.set(this.nodeKey(node), String(this.now() + ttl), "PX", ttl);
  }

  async orphans(): Promise<TaskRecord[]> {
    const nodes = `${this.prefix}tasks:nodes`;
    const orphans: TaskRecord[] = [];
    for (const node of await this.redis.smembers(nodes)) {
      const until = await this.redis.get(this.nodeKey(node));
      if (until !== null && Number(until) > this.now()) continue;
      const running = this.runningKey(node);
      const ids = await this.redis.smembers(running);
      const records = ids.length === 0 ? [] : await this.redis.mget(...ids.map((id) => this.key(id)));
      const ended: string[] = [];
      for (const [n, json] of records.entries()) {
        const task = this.live(json);
        if (task && !isTerminal(task.status) && task.node === node) orphans.push(task);
        else ended.push(ids[n] as string);
      }
      if (ended.length > 0) await this.redis.srem(running, ...ended);
      if (ended.length === ids.length) await this.redis.srem(nodes, node);
    }
    return orphans;
  }

  watch(taskId: string, listener: (task: TaskRecord) => void): () => void {
    return this.watchers.watch(taskId, listener);
  }

  /** Stops listening; the command connection is the caller's. */
  close(): Promise<void> {
    this.watchers.clear();
    return this.channel.close();
  }

  private heard(message: string): void {
    this.watchers.tell(JSON.parse(message) as TaskRecord);
  }

  /** The record, unless it is missing or past its TTL on this store's clock. */
  private live(json: string | null): TaskRecord | undefined {
    if (json === null) return undefined;
    const task = JSON.parse(json) as TaskRecord;
    return taskExpired(task, this.now()) ? undefined : task;
  }

  /** What is left of the task's TTL, for Redis to drop the key then (undefined: kept until deleted). */
  private expiry(task: TaskRecord): number | undefined {
    if (task.ttlMs === null) return undefined;
    return Math.max(1, Math.ceil(task.createdAt + task.ttlMs - this.now()));
  }

  private key(taskId: string): string {
    return `${this.prefix}task:${taskId}`;
  }

  private ownerKey(owner: string): string {
    return `${this.prefix}tasks:owner:=${owner}`;
  }

  private runningKey(node: string): string {
    return `${this.prefix}tasks:running:${node}`;
  }

  private nodeKey(node: string): string {
    return `${this.prefix}tasks:node:${node}`;
  }
}
