import { ErrorCode, McpError } from "mcpkit";
import type { McpServer } from "mcpkit/server";
import { z } from "zod";

/** Waits `ms`, or rejects when the signal aborts (a cancelled task stops at once). */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener("abort", stop, { once: true });
  });
}

const confirmForm = { type: "object" as const, properties: { confirm: { type: "boolean" } }, required: ["confirm"] };

/**
 * The Tasks extension's fixtures (the conformance suite's tasks-* scenarios): tools that
 * run as tasks with the same handlers an immediate call would use.
 */
export function registerTaskFixtures(server: McpServer): void {
  server.tool(
    "greet",
    { description: "Greets someone (never a task)", input: z.object({ name: z.string() }) },
    ({ name }) => `Hello, ${name}!`,
  );

  server.tool(
    "slow_compute",
    {
      description:
        "Works for `seconds` seconds, reporting progress, then answers (a task when the client supports them)",
      input: z.object({ seconds: z.number().min(0).max(3600), label: z.string().optional() }),
      task: { support: "optional", pollIntervalMs: 200 },
    },
    async ({ seconds, label }, ctx) => {
      const steps = Math.max(1, Math.ceil(seconds));
      for (let i = 0; i < steps && seconds > 0; i++) {
        ctx.progress(i, steps, `step ${i + 1} of ${steps}`);
        await sleep((seconds * 1000) / steps, ctx.signal);
      }
      return `Computed ${label ?? "result"} in ${seconds}s`;
    },
  );

  server.tool(
    "failing_job",
    { description: "Fails after a second with a tool error", task: { support: "required", pollIntervalMs: 200 } },
    async (_a, ctx) => {
      await sleep(1000, ctx.signal);
      return { content: [{ type: "text", text: "The job failed: no such input" }], isError: true };
    },
  );

  server.tool(
    "protocol_error_job",
    { description: "Fails with a JSON-RPC error", task: { support: "optional", pollIntervalMs: 200 } },
    async (_a, ctx) => {
      await sleep(200, ctx.signal);
      throw new McpError(ErrorCode.InternalError, "The job's worker crashed");
    },
  );

  server.tool(
    "confirm_delete",
    {
      description: "Asks for confirmation, then deletes (nothing)",
      input: z.object({ filename: z.string() }),
      task: { support: "optional", pollIntervalMs: 200 },
    },
    async ({ filename }, ctx) => {
      ctx.status(`Waiting for confirmation to delete ${filename}`);
      const answer = await ctx.elicit({ message: `Delete ${filename}?`, schema: confirmForm });
      const yes = answer.action === "accept" && answer.content?.confirm === true;
      return yes ? `Deleted ${filename}` : `Kept ${filename}`;
    },
  );

  server.tool(
    "multi_input",
    { description: "Asks two questions at once", task: { support: "optional", pollIntervalMs: 200 } },
    async (_a, ctx) => {
      const form = { type: "object" as const, properties: { name: { type: "string" } } };
      const [first, second] = await Promise.all([
        ctx.elicit({ key: "first", message: "First name?", schema: form }),
        ctx.elicit({ key: "second", message: "Second name?", schema: form }),
      ]);
      return `first=${String(first.content?.name)}, second=${String(second.content?.name)}`;
    },
  );

  server.tool(
    "test_tool_with_task",
    {
      description: "Asks for a name on the request, then finishes as a task",
      task: { support: "required", startsAt: "handler", pollIntervalMs: 200 },
    },
    async (_a, ctx) => {
      const form = { type: "object" as const, properties: { name: { type: "string" } }, required: ["name"] };
      const answer = await ctx.elicit({ key: "user_name", message: "What is your name?", schema: form });
      await ctx.startTask();
      await sleep(200, ctx.signal);
      return `Hello, ${String(answer.content?.name)}, from a task!`;
    },
  );
}
