import { toLegacyTask, type WireTask } from "../../protocol/tasks.js";
import type { CreateTaskResult } from "../../protocol/types/server-results.js";
import type { TaskRecord } from "./store.js";

/** A stored task as the 2026-07-28 wire shows it (DetailedTask): times as ISO 8601. */
export function detailedTask(record: TaskRecord): WireTask {
  const task: WireTask = {
    taskId: record.taskId,
    status: record.status,
    createdAt: new Date(record.createdAt).toISOString(),
    lastUpdatedAt: new Date(record.lastUpdatedAt).toISOString(),
    ttlMs: record.ttlMs,
  };
  if (record.statusMessage !== undefined) task.statusMessage = record.statusMessage;
  if (record.pollIntervalMs !== undefined) task.pollIntervalMs = record.pollIntervalMs;
  if (record.status === "input_required") task.inputRequests = record.inputRequests ?? {};
  if (record.status === "completed" && record.result) task.result = record.result;
  if (record.status === "failed" && record.error) task.error = record.error;
  return task;
}

/** The task without its status-specific payload (CreateTaskResult, 2025-11-25 shapes). */
export function plainTask(record: TaskRecord): WireTask {
  const { inputRequests: _i, result: _r, error: _e, ...task } = detailedTask(record);
  return task;
}

/** The answer to the request that created the task, in the revision's shape. */
export function createTaskResult(record: TaskRecord, wire: "legacy" | "extension"): CreateTaskResult {
  if (wire === "legacy") return { task: toLegacyTask(plainTask(record)) };
  return { resultType: "task", ...plainTask(record) };
}
