import assert from "node:assert/strict";
import { createServer, type McpServer } from "../../server/server.js";
import { connectInMemory } from "../connect.js";
import type { ContractCase } from "./case.js";
import type { MakeTaskStores, TaskStorePair } from "./task-store.js";

/** A promise and the function that settles it. */
function gate<T>() {
  let open!: (value: T) => void;
  const opened = new Promise<T>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

interface Nodes {
  a: McpServer;
  b: McpServer;
  /** Where each handler ran, and the name of a node whose handler saw its task cancelled. */
  ranOn: string[];
  aborted: Promise<string>;
}

/** The same tools on two servers, each on its own handle of one store: two nodes. */
function nodes(pair: TaskStorePair, now: () => number): Nodes {
  const ranOn: string[] = [];
  const aborted = gate<string>();
  const node = (name: string, store: TaskStorePair["a"]) => {
    const server = createServer({ name: `node-${name}`, version: "1", tasks: { store, now, pollIntervalMs: 5 } });
    server.tool("approve", { task: "optional" }, async (_args, ctx) => {
      ranOn.push(name);
      const answer = await ctx.elicit({ message: `Approve on ${name}?`, schema: { type: "object", properties: {} } });
      return `${answer.action} (handled on ${name})`;
    });
    server.tool("hang", { task: "optional" }, (_args, ctx) => {
      ranOn.push(name);
      return new Promise((_, reject) =>
        ctx.signal.addEventListener("abort", () => {
          aborted.open(name);
          reject(ctx.signal.reason);
        }),
      );
    });
    return server;
  };
  return { a: node("a", pair.a), b: node("b", pair.b), ranOn, aborted: aborted.opened };
}

async function withNodes(make: MakeTaskStores, run: (n: Nodes) => Promise<void>): Promise<void> {
  const pair = await make({ now: Date.now });
  try {
    await run(nodes(pair, Date.now));
  } finally {
    await pair.close?.();
  }
}

/**
 * Tasks across nodes that share a TaskStore: what the server runtime needs of a store for a
 * task created on one node to be answered, followed and cancelled on another. Each case
 * runs two servers (in memory), one on each handle the factory makes.
 */
export function taskNodesContract(make: MakeTaskStores): ContractCase[] {
  const c = (name: string, run: (n: Nodes) => Promise<void>): ContractCase => ({
    name,
    run: () => withNodes(make, run),
  });
  return [
    c("a task made on node A is answered and followed through node B; its handler runs on A", async (n) => {
      // The client on A declares elicitation (the task may ask) but leaves it to B.
      const onA = await connectInMemory(n.a, { protocolVersion: "2026-07-28", capabilities: { elicitation: {} } });
      const asked: string[] = [];
      const onB = await connectInMemory(n.b, {
        protocolVersion: "2026-07-28",
        elicitation: (params) => {
          asked.push(params.message);
          return { action: "accept", content: {} };
        },
      });
      try {
        const { task } = await onA.client.callToolAsTask("approve");
        assert.ok(task, "node A made a task");
        await onA.close();
        const result = await onB.client.task(task.taskId).result();
        assert.deepEqual(result.content, [{ type: "text", text: "accept (handled on a)" }]);
        assert.deepEqual(asked, ["Approve on a?"]);
        assert.deepEqual(n.ranOn, ["a"]);
      } finally {
        await onB.close();
      }
    }),
    c("cancelling through node B aborts the handler running on node A", async (n) => {
      const onA = await connectInMemory(n.a, { protocolVersion: "2026-07-28" });
      const onB = await connectInMemory(n.b, { protocolVersion: "2026-07-28" });
      try {
        const { task } = await onA.client.callToolAsTask("hang");
        assert.ok(task, "node A made a task");
        await onB.client.task(task.taskId).cancel();
        assert.equal(await n.aborted, "a");
        assert.equal((await onA.client.task(task.taskId).get()).status, "cancelled");
        await assert.rejects(onA.client.task(task.taskId).result(), /was cancelled/);
      } finally {
        await onA.close();
        await onB.close();
      }
    }),
    c("2025-11-25: a task made on node A is listed, read and cancelled through node B", async (n) => {
      const onA = await connectInMemory(n.a, { protocolVersion: "2025-11-25" });
      const onB = await connectInMemory(n.b, { protocolVersion: "2025-11-25" });
      try {
        const { task } = await onA.client.callToolAsTask("hang");
        assert.ok(task, "node A made a task");
        assert.equal((await onB.client.task(task.taskId).get()).status, "working");
        const cancelled = await onB.client.request("tasks/cancel", { taskId: task.taskId });
        assert.equal(cancelled.status, "cancelled");
        assert.equal(await n.aborted, "a");
      } finally {
        await onA.close();
        await onB.close();
      }
    }),
  ];
}
