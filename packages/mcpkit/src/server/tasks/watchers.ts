import type { TaskRecord } from "./store.js";

/**
 * The listeners of `TaskStore.watch`, by task, as a store keeps them in each process (a
 * store shared by processes hears of changes and tells its own): for TaskStore
 * implementations. Each listener gets a copy of its own.
 */
export class TaskWatchers {
  private readonly byTask = new Map<string, Set<(task: TaskRecord) => void>>();

  /**
   * `onError`: a listener that throws is reported there and starves none of the others;
   * without it, the throw reaches whoever told (the in-memory store's update()).
   */
  constructor(private readonly onError?: (error: unknown) => void) {}

  watch(taskId: string, listener: (task: TaskRecord) => void): () => void {
    let listeners = this.byTask.get(taskId);
    if (!listeners) {
      listeners = new Set();
      this.byTask.set(taskId, listeners);
    }
    listeners.add(listener);
    const set = listeners;
    return () => {
      set.delete(listener);
      if (set.size === 0) this.byTask.delete(taskId);
    };
  }

  /** Tells the task's listeners (those watching when it is told) of its new state. */
  tell(task: TaskRecord): void {
    const listeners = this.byTask.get(task.taskId);
    if (!listeners) return;
    for (const listener of [...listeners]) {
      if (!this.onError) {
        listener(structuredClone(task));
        continue;
      }
      try {
        listener(structuredClone(task));
      } catch (error) {
        this.onError(error);
      }
    }
  }

  clear(): void {
    this.byTask.clear();
  }
}

/** Whether a task's TTL has run out at `now` (a task with ttlMs null never expires). */
export const taskExpired = (task: TaskRecord, now: number): boolean =>
  task.ttlMs !== null && task.createdAt + task.ttlMs <= now;
