import { invalidParams, McpError } from "../../../jsonrpc/errors.js";
import type { JsonObject } from "../../../jsonrpc/types.js";
import { answerProblem } from "../../../protocol/input-answer.js";
import {
  isTerminal,
  type LegacyWireTask,
  relatedTaskMeta,
  TASKS_EXTENSION,
  toLegacyTask,
} from "../../../protocol/tasks.js";
import type { ServerCapabilities } from "../../../protocol/types/capabilities.js";
import { taskOwner } from "../../tasks/owner.js";
import { tasksCapabilityMissing } from "../../tasks/plan.js";
import type { TaskRecord, TaskStore } from "../../tasks/store.js";
import { detailedTask, plainTask } from "../../tasks/wire.js";
import { type Call, type Methods, method } from "../method.js";

const declared = (caps: ServerCapabilities) => caps.extensions?.[TASKS_EXTENSION];

const legacyTask = (record: TaskRecord): LegacyWireTask => toLegacyTask(plainTask(record));

/** The params of a method about one task: its id. */
type TaskParams = JsonObject & { taskId: string };

/**
 * tasks/* of both wires: 2026-07-28's extension (get, update, cancel) and 2025-11-25's
 * utility (get, result, list, cancel). A task is found only by its owner (the principal
 * that created it, else the session: tasks/owner.ts); anyone else is told it does not exist.
 */
export const taskMethods: Methods<"tasks/get" | "tasks/update" | "tasks/cancel" | "tasks/result" | "tasks/list"> = {
  "tasks/get": method({
    capability: declared,
    params: taskParams,
    async handler(params, call) {
      const record = await find(params, call);
      return call.peer.rules.tasks === "legacy" ? legacyTask(record) : detailedTask(record);
    },
  }),
  "tasks/update": method({
    capability: declared,
    params: taskParams,
    async handler(params, call) {
      const record = await find(params, call);
      const responses = params.inputResponses;
      if (typeof responses !== "object" || responses === null || Array.isArray(responses))
        throw invalidParams('tasks/update needs "inputResponses": an object of answers by inputRequests key');
      // Answers to keys the task is not waiting for are ignored (the extension §Task Update Requests);
      // one it is waiting for must have the shape of the result it stands for.
      for (const [key, answer] of Object.entries(responses)) {
        const asked = record.inputRequests?.[key];
        const problem = asked && Object.hasOwn(record.inputRequests ?? {}, key) && answerProblem(asked.method, answer);
        if (problem)
          throw invalidParams(`inputResponses["${key}"] is not a valid answer to ${asked.method}: ${problem}`, { key });
      }
      await store(call).update(record.taskId, { answer: responses as Record<string, unknown> });
      return {};
    },
  }),
  "tasks/cancel": method({
    capability: declared,
    params: taskParams,
    async handler(params, call) {
      const record = await find(params, call);
      const legacy = call.peer.rules.tasks === "legacy";
      if (isTerminal(record.status)) {
        // 2025-11-25 refuses; the extension acknowledges (cancellation is idempotent).
        if (legacy) throw invalidParams(`Cannot cancel task: already in terminal status '${record.status}'`);
        return {};
      }
      const after = await store(call).update(record.taskId, {
        status: "cancelled",
        statusMessage: "Cancelled by the client",
      });
      if (!legacy) return {};
      return legacyTask(after ?? record);
    },
  }),
  "tasks/result": method({
    capability: declared,
    params: taskParams,
    async handler(params, call) {
      let record = await find(params, call);
      if (!isTerminal(record.status)) record = await terminal(store(call), record, call.inbound.signal);
      if (record.status === "failed" && record.error) {
        const { code, message, data } = record.error;
        throw new McpError(code, message, data);
      }
      if (record.status !== "completed" || !record.result)
        throw invalidParams(`Task ${record.taskId} was ${record.status}: it has no result`);
      const result = record.result;
      const meta = { ...(result._meta as JsonObject | undefined), ...relatedTaskMeta(record.taskId) };
      return { ...result, _meta: meta };
    },
  }),
  "tasks/list": method({
    capability: declared,
    async handler(params, call) {
      const cursor = params.cursor;
      if (cursor !== undefined && typeof cursor !== "string") throw invalidParams('"cursor" must be a string');
      // basic/utilities/tasks §Task Isolation and Access Control: a caller with neither a
      // principal nor a session cannot be told apart from others, so it lists nothing.
      const owner = taskOwner(call);
      if (owner === undefined) return { tasks: [] };
      let page: Awaited<ReturnType<TaskStore["list"]>>;
      try {
        page = await store(call).list(owner, {
          limit: call.server.pageSize,
          ...(cursor !== undefined && { cursor }),
        });
      } catch (error) {
        if (error instanceof RangeError) throw invalidParams("Invalid cursor: list tasks again from the start");
        throw error;
      }
      const tasks = page.tasks.map(legacyTask);
      return page.nextCursor === undefined ? { tasks } : { tasks, nextCursor: page.nextCursor };
    },
  }),
};

const store = (call: Call) => call.server.taskSettings.store;

/** Reads the task's id; the extension §Error Handling: a request that did not declare the extension is refused first. */
function taskParams(params: JsonObject, call: Call): TaskParams {
  const method = call.inbound.method;
  if (call.peer.rules.tasks === "extension" && call.peer.clientCapabilities.extensions?.[TASKS_EXTENSION] === undefined)
    throw tasksCapabilityMissing(method);
  const taskId = params.taskId;
  if (typeof taskId !== "string" || taskId === "") throw invalidParams(`${method} needs a string "taskId"`);
  return params as TaskParams;
}

/** The caller's task, or -32602 (unknown, expired, or another principal's: the same answer). */
async function find({ taskId }: TaskParams, call: Call): Promise<TaskRecord> {
  const record = await store(call).get(taskId);
  if (!record || record.owner !== taskOwner(call))
    throw invalidParams(`Failed to retrieve task: Task not found (${taskId}); it may have expired`, { taskId });
  return record;
}

/** 2025-11-25 tasks/result waits for the task to end (or the request to be cancelled). */
function terminal(tasks: TaskStore, record: TaskRecord, signal: AbortSignal): Promise<TaskRecord> {
  return new Promise((resolve, reject) => {
    const done = (task: TaskRecord) => {
      if (!isTerminal(task.status)) return;
      stop();
      signal.removeEventListener("abort", aborted);
      resolve(task);
    };
    const aborted = () => {
      stop();
      reject(signal.reason);
    };
    const stop = tasks.watch(record.taskId, done);
    signal.addEventListener("abort", aborted, { once: true });
    // It may have ended between the first read and the watch.
    tasks.get(record.taskId).then((task) => {
      if (task) done(task);
      else {
        stop();
        reject(invalidParams(`Task ${record.taskId} expired before it finished`));
      }
    }, reject);
  });
}
