import { invalidParams } from "../../jsonrpc/errors.js";
import { TASKS_EXTENSION } from "../../protocol/tasks.js";
import type { Call } from "../dispatch/method.js";
import { taskOwner } from "./owner.js";
import { tasksCapabilityMissing } from "./plan.js";
import { detailedTask } from "./wire.js";

/**
 * The Tasks extension §Task Status Notifications: `taskIds` in a subscriptions/listen
 * filter. Only the caller's own tasks are honoured (another's is left out of the
 * acknowledgement, as if unknown); each change to one is sent as notifications/tasks with
 * the whole DetailedTask. Returns the honoured ids and how to stop.
 */
export async function watchTasks(
  requested: unknown,
  call: Call,
  send: (method: string, params: object) => void,
): Promise<{ taskIds: string[]; stop(): void } | undefined> {
  if (requested === undefined) return undefined;
  if (!Array.isArray(requested) || requested.some((id) => typeof id !== "string"))
    throw invalidParams('"notifications.taskIds" must be an array of task ids');
  if (call.peer.clientCapabilities.extensions?.[TASKS_EXTENSION] === undefined)
    throw tasksCapabilityMissing("Task status notifications");
  const { store } = call.server.taskSettings;
  const owner = taskOwner(call);
  const taskIds: string[] = [];
  for (const id of new Set(requested as string[])) {
    const task = await store.get(id);
    if (task && task.owner === owner) taskIds.push(id);
  }
  const stops = taskIds.map((id) => store.watch(id, (task) => send("notifications/tasks", detailedTask(task))));
  return {
    taskIds,
    stop: () => {
      for (const stop of stops) stop();
    },
  };
}
