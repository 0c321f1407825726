import type { CallToolResult } from "mcpkit";
import { parseArgumentWords, toolArguments } from "../arguments.js";
import { EXIT, UsageError } from "../exit-codes.js";
import { contentLines } from "../format/content.js";
import { structuredText } from "../format/structured.js";
import { ACTION_NAMES } from "../invocation.js";
import type { Output } from "../output.js";
import { type Action, interruptible, suggest } from "./session.js";
import { followTask, reattachHint } from "./task-progress.js";

/**
 * `[call] TOOL key=value… ['{…}']`: the tool's schema (from tools/list) says how to read
 * each value. A result with `isError: true` is the tool failing (server/tools §Error
 * Handling), which exits 1; a JSON-RPC error exits 3.
 */
export const callTool: Action = (args) => {
  const [name, ...rest] = args;
  if (!name) throw new UsageError("call needs a tool name: call TOOL key=value…");
  const words = parseArgumentWords(rest);
  return async (session) => {
    const { client, out, signal, onprogress, endProgress } = session;
    const tools = await interruptible(client.tools(), signal);
    const tool = tools.find((t) => t.name === name);
    if (!tool)
      throw new UsageError(
        // A tool name stands where an action may: a mistyped action is suggested too.
        `The server has no tool "${name}"${suggest(name, [...tools.map((t) => t.name), ...ACTION_NAMES], "tools")}`,
      );
    // A tool the server may run as a task is called as one: its progress is shown as it
    // goes, and the task outlives this run (--detach, Ctrl+C) for `task ID` to pick up.
    const started = await client.callToolAsTask(name, toolArguments(tool, words), { signal, onprogress });
    endProgress();
    if (started.task && session.detach) {
      const state = started.task.latest;
      if (out.json) out.data(state ?? { taskId: started.task.taskId });
      else {
        out.line(started.task.taskId);
        out.note(reattachHint(session, started.task.taskId));
      }
      return EXIT.ok;
    }
    const result = started.task ? await followTask(started.task, session) : started.result;
    if (out.json) out.data(result);
    else printResult(result, out);
    return result.isError ? EXIT.toolError : EXIT.ok;
  };
};

export function printResult(result: CallToolResult, out: Output): void {
  const content = result.content ?? [];
  if (result.isError) {
    out.note(out.ce.red(out.ce.bold("The tool reported an error:")));
    for (const line of content.flatMap((block) => contentLines(block, out.ce, out.save))) out.note(line);
    return;
  }
  for (const line of content.flatMap((block) => contentLines(block, out.c, out.save))) out.line(line);
  // server/tools §Structured Content: a text block usually repeats it; show it only when none
  // does, and not when it only repeats the content (an image's base64, say).
  if (result.structuredContent === undefined || content.some((block) => block.type === "text")) return;
  const text = structuredText(result.structuredContent, content);
  if (text !== undefined) out.line(text);
}
