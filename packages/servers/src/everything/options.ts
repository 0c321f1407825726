import type { ServerOptions } from "mcpkit/server";
import { describeOptions, type OptionValues } from "../options/describe.js";

/**
 * The everything server's options: the bounds of its tasks (ServerOptions.tasks,
 * docs/tasks.md), as `mcpkit serve everything`'s flags.
 */
export const everythingOptions = describeOptions({
  maxTasksPerClient: { type: "number", help: "tasks one client may have stored, running or finished", default: 100 },
  maxTaskArgumentBytes: {
    type: "number",
    help: "the largest arguments of a call run as a task, in bytes",
    default: 1024 * 1024,
  },
  maxTaskResultBytes: {
    type: "number",
    help: "the largest result a task stores, in bytes; a larger one fails it",
    default: 1024 * 1024,
  },
  taskTtlMs: { type: "duration", flag: "--task-ttl", help: "how long a task is kept", default: 3_600_000 },
  maxTaskTtlMs: {
    type: "duration",
    flag: "--max-task-ttl",
    help: "the longest any task is kept, whatever is asked",
    default: 86_400_000,
  },
  taskLeaseMs: {
    type: "duration",
    flag: "--task-lease",
    help: "with --redis: how long a dead node's tasks wait before another fails them",
    default: 10_000,
  },
});

/** What `everythingServer` takes: the options above, and the server options only code can give. */
export interface EverythingOptions extends OptionValues<typeof everythingOptions> {
  /** Given to createServer as they are (a cluster's event bus, request-state key and task store; a name). */
  serverOptions?: Partial<ServerOptions>;
}
