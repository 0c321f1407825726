import type { JsonObject } from "../../jsonrpc/types.js";
import type { Call } from "../dispatch/call.js";
import { principalOf } from "../principal.js";
import type { ToolEntry } from "../registry/tool.js";
import type { TaskPlan } from "./plan.js";
import { TaskRun } from "./run.js";

type Outcome = { ok: true; value: JsonObject } | { ok: false; error: unknown };

/**
 * Runs a call as a task: the request is answered with the task (CreateTaskResult) once
 * it is stored, and the handler's outcome completes or fails it later. With
 * `startsAt: "handler"` the call stays an ordinary request until the handler calls
 * `ctx.startTask()`; if it finishes first, its result is the answer.
 */
export async function runAsTask(
  call: Call,
  tool: ToolEntry,
  plan: TaskPlan,
  work: () => Promise<JsonObject>,
): Promise<JsonObject> {
  const options = tool.task ?? { support: "optional" };
  const run = new TaskRun({
    settings: call.server.taskSettings,
    peer: call.peer,
    method: call.inbound.method,
    owner: principalOf(call.inbound.info?.auth),
    tool: options,
    requestedTtlMs: plan.requestedTtlMs,
    onError: (error) => call.server.onError(error),
  });
  call.context().bindTask(run);
  if ((options.startsAt ?? "call") === "call") await run.start();
  const finished: Promise<Outcome> = work().then(
    (value) => ({ ok: true, value }),
    (error: unknown) => ({ ok: false, error }),
  );
  const first = await Promise.race([finished, run.whenStarted.then(() => "started" as const)]);
  if (first === "started" || run.started) {
    void finished.then((outcome) => run.finish(outcome));
    return run.createResult();
  }
  if (first.ok) return first.value;
  throw first.error;
}
