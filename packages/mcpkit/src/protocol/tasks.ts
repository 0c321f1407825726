import { fromJson } from "../jsonrpc/message.js";

/**
 * Tasks: the 2026-07-28 extension (`io.modelcontextprotocol/tasks`, SEP-2663) and the
 * 2025-11-25 utility it replaced. One task model; the two wires differ only in field
 * names and envelopes, which the functions below translate.
 */

/** The extension's identifier, in `capabilities.extensions` on both sides. */
export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

/** 2025-11-25: the `_meta` key tying a message to its task. */
export const RELATED_TASK = "io.modelcontextprotocol/related-task";

/** 2025-11-25: messages about a task carry its id in `_meta`. */
export function relatedTaskMeta(taskId: string): { [RELATED_TASK]: { taskId: string } } {
  return { [RELATED_TASK]: { taskId } };
}

export type TaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";

const TERMINAL: ReadonlySet<string> = new Set(["completed", "failed", "cancelled"]);

export function isTerminal(status: string): boolean {
  return TERMINAL.has(status);
}

/** Whether a tool may, must or must not run as a task (2025-11-25 `execution.taskSupport`). */
export type TaskSupport = "forbidden" | "optional" | "required";

/** A request to the client the task waits on, by key (mrtr's InputRequest). */
export interface TaskInputRequest {
  method: string;
  params: Record<string, unknown>;
}

export interface TaskError {
  code: number;
  message: string;
  data?: unknown;
}

/** A task as the 2026-07-28 wire shows it (`DetailedTask`): status-specific fields inlined. */
export interface WireTask {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttlMs: number | null;
  pollIntervalMs?: number;
  inputRequests?: Record<string, TaskInputRequest>;
  result?: Record<string, unknown>;
  error?: TaskError;
}

/** A task as 2025-11-25 shows it: `ttl` and `pollInterval`, results only through tasks/result. */
export interface LegacyWireTask {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttl: number | null;
  pollInterval?: number;
}

/** The 2025-11-25 shape of a task (no inlined result, error or input requests). */
export function toLegacyTask(task: WireTask): LegacyWireTask {
  const out: LegacyWireTask = {
    taskId: task.taskId,
    status: task.status,
    createdAt: task.createdAt,
    lastUpdatedAt: task.lastUpdatedAt,
    ttl: task.ttlMs,
  };
  if (task.statusMessage !== undefined) out.statusMessage = task.statusMessage;
  if (task.pollIntervalMs !== undefined) out.pollInterval = task.pollIntervalMs;
  return out;
}

/** Reads either wire's task into the 2026-07-28 shape (the client's one model). */
export function fromAnyWire(value: Record<string, unknown>): WireTask {
  const task = { ...value } as Record<string, unknown>;
  if (task.ttlMs === undefined && "ttl" in task) task.ttlMs = task.ttl;
  if (task.pollIntervalMs === undefined && typeof task.pollInterval === "number")
    task.pollIntervalMs = task.pollInterval;
  delete task.ttl;
  delete task.pollInterval;
  delete task.resultType;
  delete task._meta;
  return fromJson<WireTask>(task);
}
