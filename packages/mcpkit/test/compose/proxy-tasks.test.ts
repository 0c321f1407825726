import { describe, expect, it } from "vitest";
import { REVISIONS, type Revision } from "../../src/protocol/versions.js";
import { createServer } from "../../src/server/index.js";
import { callerOf, proxyOf } from "./helpers.js";

/**
 * Tasks through the proxy, in both revisions on either side: a tool the upstream runs as
 * a task runs as the proxy's own task, which follows the upstream's (its status, its
 * questions, its result) and cancels it when cancelled.
 */

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

function researchServer() {
  const proceed = gate();
  const cancelled = gate();
  const server = createServer({ name: "research", version: "1", tasks: { pollIntervalMs: 5 } });
  // A task-only tool, like server-everything's simulate-research-query.
  server.tool("research", { task: "required" }, async (_args, ctx) => {
    ctx.status("reading sources");
    await proceed.opened;
    const answer = await ctx.elicit({
      message: "Which angle?",
      schema: { type: "object", properties: { angle: { type: "string" } }, required: ["angle"] },
    });
    return `report from the ${String(answer.content?.angle)} angle`;
  });
  server.tool("hang", { task: "required" }, async (_args, ctx) => {
    await new Promise<void>((resolve) => ctx.signal.addEventListener("abort", () => resolve(), { once: true }));
    cancelled.open();
    return "stopped";
  });
  return { server, proceed, cancelled };
}

const ERAS: { name: string; revision: Revision }[] = [
  { name: "2025-11-25", revision: "2025-11-25" },
  { name: "2026-07-28", revision: "2026-07-28" },
];
const answering = { elicitation: () => ({ action: "accept" as const, content: { angle: "economic" } }) };

for (const downstream of ERAS)
  for (const upstream of ERAS)
    describe(`tasks: a ${downstream.name} caller, a ${upstream.name} upstream`, () => {
      const proxied = async () => {
        const research = researchServer();
        const proxy = await proxyOf(research.server, {
          client: { protocolVersion: upstream.revision },
          ...(downstream.revision === "2026-07-28" && { revisions: REVISIONS }),
        });
        const { client } = await callerOf(proxy, { protocolVersion: downstream.revision, ...answering });
        return { ...research, client };
      };

      it("calls a task-only tool as a task: the caller gets a task, answers its question, gets its result", async () => {
        const { client, proceed } = await proxied();
        if (downstream.revision === "2025-11-25" && upstream.revision === "2025-11-25") {
          // The listing says what the upstream's says (2025-11-25 §Tool-Level Negotiation).
          const tool = (await client.tools()).find((t) => t.name === "research");
          expect(tool?.execution).toEqual({ taskSupport: "required" });
        }
        // A 2025-11-25 caller learns that a tool takes tasks from the listing; a 2026-07-28 upstream's says nothing.
        const asTask = downstream.revision === "2026-07-28" || upstream.revision === "2025-11-25";
        if (!asTask) proceed.open();
        const started = await client.callToolAsTask("research");
        if (!asTask) {
          expect(started.result?.content).toEqual([{ type: "text", text: "report from the economic angle" }]);
          return;
        }
        if (!started.task) throw new Error(`expected a task, got ${JSON.stringify(started.result)}`);
        proceed.open();
        const result = await started.task.result();
        expect(result.content).toEqual([{ type: "text", text: "report from the economic angle" }]);
      });

      it("calls it for a caller that takes no task, waiting for the upstream's task", async () => {
        const { client, proceed } = await proxied();
        proceed.open();
        const result = await client.callTool("research");
        expect(result.content).toEqual([{ type: "text", text: "report from the economic angle" }]);
      });

      it("cancels the upstream's task when the caller cancels the proxy's task, or its call", async () => {
        const { client, cancelled } = await proxied();
        if (downstream.revision === "2025-11-25" && upstream.revision === "2026-07-28") {
          // No task for this caller (the listing cannot say): it cancels its call.
          const abort = new AbortController();
          const call = client.callTool("hang", {}, { signal: abort.signal });
          await new Promise((resolve) => setImmediate(resolve));
          abort.abort(new Error("enough"));
          await expect(call).rejects.toThrow("enough");
        } else {
          const started = await client.callToolAsTask("hang");
          if (!started.task) throw new Error("expected a task");
          await started.task.cancel();
        }
        await cancelled.opened;
      });
    });
