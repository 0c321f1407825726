import type { TaskStore } from "./store.js";
import type { TaskNode } from "./task-node.js";

/** ServerOptions.tasks: where tasks are kept, for how long, and how many of how much. */
export interface TaskServerOptions {
  /** Default: in this process's memory (InMemoryTaskStore). Share one (Redis) across nodes. */
  store?: TaskStore;
  /** How long a task is kept from creation, ms (default one hour; null: as long as maxTtlMs allows). */
  ttlMs?: number | null;
  /**
   * The longest any task is kept, ms, whatever the server, the tool or a 2025-11-25
   * client's `task.ttl` asks for (default one day; null lets tasks be kept forever).
   */
  maxTtlMs?: number | null;
  /** The polling interval suggested to clients, ms (default 1000). */
  pollIntervalMs?: number;
  /**
   * Tasks one client may have stored at once, running or finished (until their TTL ends):
   * a client is its principal, else its address, so new sessions buy no more (default 100).
   * One more is refused with -32600.
   */
  maxTasksPerClient?: number;
  /** The largest `arguments` of a call that runs as a task, bytes of JSON (default 1 MiB). */
  maxArgumentBytes?: number;
  /** The largest result a task stores, bytes of JSON; a larger one fails the task (default 1 MiB). */
  maxResultBytes?: number;
  /**
   * With a store shared by nodes (one with heartbeats): how long a node's tasks outlive
   * its last heartbeat, ms, before another node fails them (default 10 000; heartbeats
   * come three times as often).
   */
  leaseMs?: number;
  /** The clock task times are read from (default Date.now); give the store the same one. */
  now?: () => number;
}

export interface TaskSettings {
  readonly store: TaskStore;
  readonly ttlMs: number | null;
  readonly maxTtlMs: number | null;
  readonly pollIntervalMs: number;
  readonly maxTasksPerClient: number;
  readonly maxArgumentBytes: number;
  readonly maxResultBytes: number;
  readonly now: () => number;
  /** This node's running tasks, and its heartbeat with a shared store. */
  readonly node: TaskNode;
}

export const TASK_DEFAULTS = {
  ttlMs: 3_600_000,
  maxTtlMs: 86_400_000,
  pollIntervalMs: 1000,
  maxTasksPerClient: 100,
  maxArgumentBytes: 1024 * 1024,
  maxResultBytes: 1024 * 1024,
  leaseMs: 10_000,
} as const;

/** The longest a task may be kept under `ceiling` (null: no ceiling); null keeps it forever. */
export function cappedTtl(ttlMs: number | null, ceiling: number | null): number | null {
  if (ceiling === null) return ttlMs;
  return ttlMs === null ? ceiling : Math.min(ttlMs, ceiling);
}
