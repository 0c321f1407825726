import { EXIT, UsageError } from "../exit-codes.js";
import { printResult } from "./call-tool.js";
import type { Action } from "./session.js";
import { followTask, taskLine } from "./task-progress.js";

const VERBS = ["wait", "status", "cancel"] as const;

/**
 * `task ID [wait|status|cancel]`: comes back to a task started earlier (by `--detach`, or
 * by a run that was interrupted): waits for its result (the default), shows its state
 * once, or cancels it.
 */
export const task: Action = (args) => {
  const [taskId, verb = "wait", ...extra] = args;
  if (!taskId) throw new UsageError("task needs a task id: task ID [wait|status|cancel]");
  if (!(VERBS as readonly string[]).includes(verb))
    throw new UsageError(`task ${taskId} takes one of ${VERBS.join(", ")}, not "${verb}"`);
  if (extra.length > 0) throw new UsageError(`task takes a task id and one of ${VERBS.join(", ")}`);
  return async (session) => {
    const { client, out } = session;
    const handle = client.task(taskId);
    if (verb === "cancel") {
      await handle.cancel({ signal: session.signal });
      const state = await handle.get({ signal: session.signal });
      if (out.json) out.data(state);
      else out.note(taskLine(state, out));
      return EXIT.ok;
    }
    if (verb === "status") {
      const state = await handle.get({ signal: session.signal });
      if (out.json) out.data(state);
      else out.line(taskLine(state, out));
      return EXIT.ok;
    }
    const result = await followTask(handle, session);
    if (out.json) out.data(result);
    else printResult(result, out);
    return result.isError ? EXIT.toolError : EXIT.ok;
  };
};
