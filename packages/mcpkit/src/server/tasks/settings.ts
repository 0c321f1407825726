import type { TaskStore } from "./store.js";

/** ServerOptions.tasks: where tasks are kept and for how long. */
export interface TaskServerOptions {
  /** Default: in this process's memory (InMemoryTaskStore). Share one (Redis) across nodes. */
  store?: TaskStore;
  /** How long a task is kept from creation, ms (default one hour; null keeps it until the store drops it). */
  ttlMs?: number | null;
  /** The most a 2025-11-25 client may ask for with `task.ttl`, ms (default one day). */
  maxTtlMs?: number;
  /** The polling interval suggested to clients, ms (default 1000). */
  pollIntervalMs?: number;
  /** The clock task times are read from (default Date.now); give the store the same one. */
  now?: () => number;
}

export interface TaskSettings {
  readonly store: TaskStore;
  readonly ttlMs: number | null;
  readonly maxTtlMs: number;
  readonly pollIntervalMs: number;
  readonly now: () => number;
}
