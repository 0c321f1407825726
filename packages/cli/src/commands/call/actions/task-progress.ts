import type { ToolTask, WireTask } from "mcpkit/client";
import { Interrupted } from "../exit-codes.js";
import type { Output } from "../output.js";
import type { Session } from "./session.js";

/** One line per state a task reaches, on stderr: `task 1f3…: working, step 2 of 5`. */
export function taskLine(task: WireTask, out: Output): string {
  const message = task.statusMessage ? `, ${task.statusMessage}` : "";
  return out.ce.dim(`task ${task.taskId}: ${task.status.replace("_", " ")}${message}`);
}

/** How to come back to a task this run leaves behind. */
export function reattachHint(session: Session, taskId: string): string {
  return session.out.ce.dim(`re-attach with: mcpkit call ${session.target} task ${taskId}`);
}

/**
 * Waits for a task's result, showing each state it reaches. Ctrl+C leaves the task running
 * on the server (it is not this request's to cancel: another run may re-attach) and says
 * how to come back to it.
 */
export async function followTask(task: ToolTask, session: Session) {
  const { out, signal } = session;
  try {
    return await task.result({
      signal,
      onUpdate: (state) => {
        session.endProgress();
        out.note(taskLine(state, out));
      },
    });
  } catch (error) {
    if (!signal.aborted) throw error;
    out.note(reattachHint(session, task.taskId));
    throw new Interrupted();
  }
}
