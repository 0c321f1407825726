import { isTerminal } from "../../protocol/tasks.js";
import type { TaskPage, TaskPatch, TaskRecord, TaskStore } from "./store.js";

export interface InMemoryTaskStoreOptions {
  /** The clock TTLs are measured with (default Date.now); tests inject one. */
  now?: () => number;
}

/** Tasks in this process's memory: lost on restart, invisible to other nodes. */
export class InMemoryTaskStore implements TaskStore {
  private readonly tasks = new Map<string, TaskRecord>();
  private readonly watchers = new Map<string, Set<(task: TaskRecord) => void>>();
  private readonly now: () => number;

  constructor(options: InMemoryTaskStoreOptions = {}) {
    this.now = options.now ?? Date.now;
  }

  async create(task: TaskRecord): Promise<void> {
    this.sweep();
    if (this.tasks.has(task.taskId)) throw new Error(`Task ${task.taskId} exists already`);
    this.tasks.set(task.taskId, structuredClone(task));
  }

  async get(taskId: string): Promise<TaskRecord | undefined> {
    const task = this.live(taskId);
    return task && structuredClone(task);
  }

  async update(taskId: string, patch: TaskPatch): Promise<TaskRecord | undefined> {
    const task = this.live(taskId);
    if (!task) return undefined;
    if (isTerminal(task.status)) return structuredClone(task);
    applyPatch(task, structuredClone(patch), this.now());
    const copy = structuredClone(task);
    for (const listener of [...(this.watchers.get(taskId) ?? [])]) listener(structuredClone(copy));
    return copy;
  }

  async list(owner: string | undefined, options: { cursor?: string; limit?: number } = {}): Promise<TaskPage> {
    this.sweep();
    const limit = options.limit ?? 100;
    const mine = [...this.tasks.values()].filter((t) => t.owner === owner);
    let start = 0;
    if (options.cursor !== undefined) {
      start = mine.findIndex((t) => t.taskId === options.cursor) + 1;
      if (start === 0) throw new RangeError("Unknown cursor");
    }
    const page = mine.slice(start, start + limit);
    const last = page.at(-1);
    return {
      tasks: page.map((t) => structuredClone(t)),
      ...(start + limit < mine.length && last && { nextCursor: last.taskId }),
    };
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

  private live(taskId: string): TaskRecord | undefined {
    const task = this.tasks.get(taskId);
    if (task && expired(task, this.now())) {
      this.tasks.delete(taskId);
      return undefined;
    }
    return task;
  }

  private sweep(): void {
    const now = this.now();
    for (const [id, task] of this.tasks) if (expired(task, now)) this.tasks.delete(id);
  }
}

function expired(task: TaskRecord, now: number): boolean {
  return task.ttlMs !== null && task.createdAt + task.ttlMs <= now;
}

/** The patch rules of TaskPatch, for stores that apply them in this process. */
export function applyPatch(task: TaskRecord, patch: TaskPatch, now: number): void {
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
