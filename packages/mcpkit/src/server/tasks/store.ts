import type { JsonObject } from "../../jsonrpc/types.js";
import type { TaskError, TaskInputRequest, TaskStatus } from "../../protocol/tasks.js";

/** One task as a store keeps it; times are epoch milliseconds. */
export interface TaskRecord {
  taskId: string;
  /**
   * Whose it is (owner.ts): `principal:<subject>` for a request with a verified token, else
   * `session:<id>` for the legacy session that created it. Absent only for a 2026-07-28
   * request without a token, whose task id is then the one key to it.
   */
  owner?: string;
  /**
   * The node whose handler works on it, while it runs, with a store that keeps node
   * heartbeats: when that node's heartbeat lapses, another node fails the task.
   */
  node?: string;
  /** The request it augments (tools/call). */
  method: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: number;
  lastUpdatedAt: number;
  /** From creation; null keeps it until deleted. */
  ttlMs: number | null;
  pollIntervalMs?: number;
  /** Requests to the client the task waits on, by key (status input_required). */
  inputRequests?: Record<string, TaskInputRequest>;
  /** Answers delivered by tasks/update that the running handler has not taken yet. */
  inputResponses?: Record<string, unknown>;
  result?: JsonObject;
  error?: TaskError;
}

/**
 * A change to a task, applied atomically by the store. Rules every store keeps (the
 * contract suite checks them):
 * - a terminal task (completed, failed, cancelled) never changes again;
 * - `ask` adds input requests and makes the status input_required;
 * - `answer` moves each answered, outstanding key from inputRequests to inputResponses
 *   (unknown or already answered keys are ignored); when none is left outstanding the
 *   status returns to working;
 * - `take` removes answers the handler has consumed;
 * - `status` (with `result` or `error` for a terminal one) is applied last.
 */
export interface TaskPatch {
  status?: TaskStatus;
  statusMessage?: string;
  result?: JsonObject;
  error?: TaskError;
  ask?: Record<string, TaskInputRequest>;
  answer?: Record<string, unknown>;
  take?: string[];
}

export interface TaskPage {
  tasks: TaskRecord[];
  nextCursor?: string;
}

/** A bound `create` keeps: at most `max` live tasks (any status, until their TTL) per client. */
export interface TaskQuota {
  /** Whom the task counts against (owner.ts `taskClient`). */
  client: string;
  max: number;
}

/** `create` refused a task: its client holds as many as the quota allows. */
export class TaskLimitError extends Error {
  readonly limit: number;

  constructor(limit: number) {
    super(`This client already has ${limit} tasks stored, the most allowed`);
    this.name = "TaskLimitError";
    this.limit = limit;
  }
}

/**
 * Where tasks live. The server writes through it and reads from it only, so a store
 * shared by several processes (Redis) lets a task created on one node be polled,
 * answered and cancelled on another: `watch` is how the node running the handler hears
 * of an answer or a cancellation made elsewhere.
 *
 * A task whose TTL has elapsed (createdAt + ttlMs <= now) is gone: get, update and list
 * no longer see it.
 */
export interface TaskStore {
  /**
   * Stores a new task; resolves once a `get` from any node would find it. With a quota,
   * counting and storing are one atomic step: it rejects with TaskLimitError when the
   * client has `quota.max` live tasks already.
   */
  create(task: TaskRecord, quota?: TaskQuota): Promise<void>;
  get(taskId: string): Promise<TaskRecord | undefined>;
  /** Applies a patch; resolves with the task as it is afterwards, or undefined if there is none. */
  update(taskId: string, patch: TaskPatch): Promise<TaskRecord | undefined>;
  /**
   * One owner's tasks, oldest first, `limit` at a time, filtered in the store so that a
   * page and its cursor never reveal another owner's task. The cursor is opaque; one the
   * store does not know (or another owner's) rejects with a RangeError.
   */
  list(owner: string, options?: { cursor?: string; limit?: number }): Promise<TaskPage>;
  /** Calls `listener` with the task after each change (made through any node); returns the unsubscribe. */
  watch(taskId: string, listener: (task: TaskRecord) => void): () => void;
  /**
   * Stores shared by nodes: `node` is alive for `ttlMs` more. The server calls it on a
   * timer while it may run tasks and records the node on each task it runs.
   */
  heartbeat?(node: string, ttlMs: number): Promise<void>;
  /**
   * Stores shared by nodes: the tasks, not yet ended, whose node's heartbeat has lapsed
   * (the node died with them). Any node may then fail them.
   */
  orphans?(): Promise<TaskRecord[]>;
  /** Releases connections and timers. */
  close?(): Promise<void>;
}
