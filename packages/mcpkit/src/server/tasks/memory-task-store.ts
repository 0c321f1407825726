import { isTerminal } from "../../protocol/tasks.js";
import {
  TaskLimitError,
  type TaskPage,
  type TaskPatch,
  type TaskQuota,
  type TaskRecord,
  type TaskStore,
} from "./store.js";
import { TaskWatchers, taskExpired } from "./watchers.js";

export interface InMemoryTaskStoreOptions {
  /** The clock TTLs are measured with (default Date.now); tests inject one. */
  now?: () => number;
  /**
   * Keep node heartbeats and find orphaned tasks (TaskStore.heartbeat, orphans), as a store
   * shared by processes does. Off by default: the nodes of one process die together, so
   * there is nothing to find; tests that stand two servers for two nodes turn it on.
   */
  leases?: boolean;
}

/**
 * Tasks in this process's memory: lost on restart, invisible to other nodes. Indexed by
 * owner (tasks/list reads one owner's tasks only) and by quota client.
 */
export class InMemoryTaskStore implements TaskStore {
  private readonly tasks = new Map<string, TaskRecord>();
  private readonly owners = new Map<string, Set<string>>();
  private readonly clients = new Map<string, Set<string>>();
  private readonly clientOf = new Map<string, string>();
  private readonly beats = new Map<string, number>();
  private readonly watchers = new TaskWatchers();
  private readonly now: () => number;

  readonly heartbeat?: (node: string, ttlMs: number) => Promise<void>;
  readonly orphans?: () => Promise<TaskRecord[]>;

  constructor(options: InMemoryTaskStoreOptions = {}) {
    this.now = options.now ?? Date.now;
    if (options.leases) {
      this.heartbeat = async (node, ttlMs) => {
        this.beats.set(node, this.now() + ttlMs);
      };
      this.orphans = async () => this.findOrphans();
    }
  }

  async create(task: TaskRecord, quota?: TaskQuota): Promise<void> {
    this.sweep();
    if (this.tasks.has(task.taskId)) throw new Error(`Task ${task.taskId} exists already`);
    if (quota && (this.clients.get(quota.client)?.size ?? 0) >= quota.max) throw new TaskLimitError(quota.max);
    this.tasks.set(task.taskId, structuredClone(task));
    if (task.owner !== undefined) indexed(this.owners, task.owner).add(task.taskId);
    if (quota) {
      indexed(this.clients, quota.client).add(task.taskId);
      this.clientOf.set(task.taskId, quota.client);
    }
  }

  async get(taskId: string): Promise<TaskRecord | undefined> {
    const task = this.live(taskId);
    return task && structuredClone(task);
  }

  async update(taskId: string, patch: TaskPatch): Promise<TaskRecord | undefined> {
    const task = this.live(taskId);
    if (!task) return undefined;
    if (isTerminal(task.status)) return structuredClone(task);
    applyTaskPatch(task, structuredClone(patch), this.now());
    const copy = structuredClone(task);
    this.watchers.tell(copy);
    return copy;
  }

  async list(owner: string, options: { cursor?: string; limit?: number } = {}): Promise<TaskPage> {
    this.sweep();
    const limit = options.limit ?? 100;
    const mine = [...(this.owners.get(owner) ?? [])];
    let start = 0;
    if (options.cursor !== undefined) {
      start = mine.indexOf(options.cursor) + 1;
      if (start === 0) throw new RangeError(`Unknown cursor ${options.cursor}`);
    }
    const page = mine.slice(start, start + limit).map((id) => this.tasks.get(id) as TaskRecord);
    const last = page.at(-1);
    return {
      tasks: page.map((t) => structuredClone(t)),
      ...(start + limit < mine.length && last && { nextCursor: last.taskId }),
    };
  }

  watch(taskId: string, listener: (task: TaskRecord) => void): () => void {
    return this.watchers.watch(taskId, listener);
  }

  private findOrphans(): TaskRecord[] {
    this.sweep();
    const now = this.now();
    const dead = (node: string) => (this.beats.get(node) ?? 0) <= now;
    return [...this.tasks.values()]
      .filter((t) => t.node !== undefined && !isTerminal(t.status) && dead(t.node))
      .map((t) => structuredClone(t));
  }

  private live(taskId: string): TaskRecord | undefined {
    const task = this.tasks.get(taskId);
    if (task && taskExpired(task, this.now())) {
      this.drop(task);
      return undefined;
    }
    return task;
  }

  private sweep(): void {
    const now = this.now();
    for (const task of this.tasks.values()) if (taskExpired(task, now)) this.drop(task);
  }

  private drop(task: TaskRecord): void {
    const id = task.taskId;
    this.tasks.delete(id);
    if (task.owner !== undefined) unindex(this.owners, task.owner, id);
    const client = this.clientOf.get(id);
    if (client !== undefined) {
      this.clientOf.delete(id);
      unindex(this.clients, client, id);
    }
  }
}

function indexed(index: Map<string, Set<string>>, key: string): Set<string> {
  let ids = index.get(key);
  if (!ids) {
    ids = new Set();
    index.set(key, ids);
  }
  return ids;
}

function unindex(index: Map<string, Set<string>>, key: string, id: string): void {
  const ids = index.get(key);
  ids?.delete(id);
  if (ids?.size === 0) index.delete(key);
}

/** The patch rules of TaskPatch, for stores that apply them in this process. */
export function applyTaskPatch(task: TaskRecord, patch: TaskPatch, now: number): void {
  if (patch.ask) {
    task.inputRequests = { ...task.inputRequests, ...patch.ask };
    task.status = "input_required";
  }
  if (patch.answer && task.inputRequests) {
    for (const [key, value] of Object.entries(patch.answer)) {
      if (!Object.hasOwn(task.inputRequests, key)) continue;
      delete task.inputRequests[key];
      task.inputResponses = { ...task.inputResponses, [key]: value };
    }
    if (Object.keys(task.inputRequests).length === 0) {
      delete task.inputRequests;
      if (task.status === "input_required") task.status = "working";
    }
  }
  if (patch.take && task.inputResponses) {
    for (const key of patch.take) delete task.inputResponses[key];
    if (Object.keys(task.inputResponses).length === 0) delete task.inputResponses;
  }
  if (patch.statusMessage !== undefined) task.statusMessage = patch.statusMessage;
  if (patch.status !== undefined) {
    task.status = patch.status;
    if (isTerminal(patch.status)) {
      delete task.inputRequests;
      delete task.inputResponses;
    }
  }
  if (patch.result !== undefined) task.result = patch.result;
  if (patch.error !== undefined) task.error = patch.error;
  task.lastUpdatedAt = now;
}
