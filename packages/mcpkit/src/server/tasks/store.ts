import type { JsonObject } from "../../jsonrpc/types.js";
import type { TaskError, TaskInputRequest, TaskStatus } from "../../protocol/tasks.js";

/** One task as a store keeps it; times are epoch milliseconds. */
export interface TaskRecord {
  taskId: string;
  /** The principal that created it (principalOf); absent when the request carried no verified token. */
  owner?: string;
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
  /** Stores a new task; resolves once a `get` from any node would find it. */
  create(task: TaskRecord): Promise<void>;
  get(taskId: string): Promise<TaskRecord | undefined>;
  /** Applies a patch; resolves with the task as it is afterwards, or undefined if there is none. */
  update(taskId: string, patch: TaskPatch): Promise<TaskRecord | undefined>;
  /** One owner's tasks, oldest first, `limit` at a time; the cursor is opaque. */
  list(owner: string | undefined, options?: { cursor?: string; limit?: number }): Promise<TaskPage>;
  /** Calls `listener` with the task after each change (made through any node); returns the unsubscribe. */
  watch(taskId: string, listener: (task: TaskRecord) => void): () => void;
  /** Releases connections and timers. */
  close?(): Promise<void>;
}
