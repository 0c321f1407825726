import { invalidParams } from "../../jsonrpc/errors.js";
import type { CreateTaskResult } from "../../protocol/types/server-results.js";
import type { Call } from "../dispatch/method.js";
import type { ToolEntry } from "../registry/tool.js";
import { taskClient, taskOwner } from "./owner.js";
import type { TaskPlan } from "./plan.js";
import { TaskRun } from "./run.js";

type Outcome<R> = { ok: true; value: R } | { ok: false; error: unknown };

/**
 * Runs a call as a task: the request is answered with the task (CreateTaskResult) once
 * it is stored, and the handler's outcome completes or fails it later. With
 * `startsAt: "handler"` (2026-07-28) the call stays an ordinary request until the handler
 * calls `ctx.startTask()`; if it finishes first, its result is the answer.
 */
export async function runAsTask<R extends object>(
  call: Call,
  tool: ToolEntry,
  plan: TaskPlan,
  args: unknown,
  work: () => Promise<R>,
): Promise<R | CreateTaskResult> {
  const options = tool.task ?? { support: "optional" };
  const settings = call.server.taskSettings;
  // A running task holds its arguments for as long as it runs.
  const size = Buffer.byteLength(JSON.stringify(args ?? {}));
  if (size > settings.maxArgumentBytes)
    throw invalidParams(
      `The arguments of ${tool.key} are ${size} bytes of JSON, more than the ${settings.maxArgumentBytes} this server accepts for a call that runs as a task`,
      { reason: "arguments-too-large", size, limit: settings.maxArgumentBytes },
    );
  const owner = taskOwner(call);
  const run = new TaskRun({
    settings,
    peer: call.peer,
    method: call.inbound.method,
    owner,
    client: taskClient(call, owner),
    tool: options,
    requestedTtlMs: plan.requestedTtlMs,
    onError: (error) => call.server.onError(error),
  });
  call.context().bindTask(run);
  // 2025-11-25: a client that asked for a task gets one (§Result Retrieval), whatever the handler does.
  if ((options.startsAt ?? "call") === "call" || call.peer.rules.tasks === "legacy") await run.start();
  const finished: Promise<Outcome<R>> = work().then(
    (value) => ({ ok: true, value }),
    (error: unknown) => ({ ok: false, error }),
  );
  const first = await Promise.race([finished, run.whenStarted.then(() => "started" as const)]);
  if (first === "started" || run.started) {
    finished.then((outcome) => run.finish(outcome)).catch((error: unknown) => call.server.onError(error));
    // A task-augmented request is cancelled with tasks/cancel (basic/utilities/cancellation);
    // a client that cancels the request before it learns the task's id cannot reach the
    // task any other way, so that cancellation ends the task (and aborts its handler).
    const cancelTask = () => {
      if (call.inbound.cancelled)
        run
          .cancel("The request that made the task was cancelled")
          .catch((error: unknown) => call.server.onError(error));
    };
    if (call.inbound.cancelled) cancelTask();
    else call.inbound.signal.addEventListener("abort", cancelTask, { once: true });
    return run.createResult();
  }
  if (first.ok) return first.value;
  throw first.error;
}
