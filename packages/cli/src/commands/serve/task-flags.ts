import { Option } from "commander";
import type { TaskServerOptions } from "mcpkit/server";
import { durationMs } from "../duration.js";
import { positive } from "../numbers.js";

/** The flags of a server whose tools run as tasks: the bounds of ServerOptions.tasks (docs/tasks.md). */
export const taskOptions = (): Option[] => [
  new Option("--max-tasks-per-client <n>", "tasks one client may have stored, running or finished (default 100)"),
  new Option("--max-task-argument-bytes <n>", "the largest arguments of a call run as a task (default 1048576)"),
  new Option(
    "--max-task-result-bytes <n>",
    "the largest result a task stores; a larger one fails it (default 1048576)",
  ),
  new Option("--task-ttl <duration>", "how long a task is kept (default 1h)"),
  new Option("--max-task-ttl <duration>", "the longest any task is kept, whatever is asked (default 24h)"),
  new Option(
    "--task-lease <duration>",
    "with --redis: how long a dead node's tasks wait before another fails them (default 10s)",
  ),
];

/** The parsed flags as ServerOptions.tasks fields (only those given). */
export function taskLimits(values: Record<string, unknown>): TaskServerOptions {
  const text = (key: string) => (values[key] === undefined ? undefined : String(values[key]));
  const number = (key: string, flag: string) => {
    const value = text(key);
    return value === undefined ? undefined : positive(value, flag);
  };
  const duration = (key: string, flag: string) => {
    const value = text(key);
    return value === undefined ? undefined : durationMs(value, flag);
  };
  const limits: TaskServerOptions = {};
  const maxTasksPerClient = number("maxTasksPerClient", "--max-tasks-per-client");
  const maxArgumentBytes = number("maxTaskArgumentBytes", "--max-task-argument-bytes");
  const maxResultBytes = number("maxTaskResultBytes", "--max-task-result-bytes");
  const ttlMs = duration("taskTtl", "--task-ttl");
  const maxTtlMs = duration("maxTaskTtl", "--max-task-ttl");
  const leaseMs = duration("taskLease", "--task-lease");
  if (maxTasksPerClient !== undefined) limits.maxTasksPerClient = maxTasksPerClient;
  if (maxArgumentBytes !== undefined) limits.maxArgumentBytes = maxArgumentBytes;
  if (maxResultBytes !== undefined) limits.maxResultBytes = maxResultBytes;
  if (ttlMs !== undefined) limits.ttlMs = ttlMs;
  if (maxTtlMs !== undefined) limits.maxTtlMs = maxTtlMs;
  if (leaseMs !== undefined) limits.leaseMs = leaseMs;
  return limits;
}
