import assert from "node:assert/strict";
import { Client } from "../../client/client.js";
import type { JsonRpcMessage } from "../../jsonrpc/types.js";
import { createServer, type McpServer } from "../../server/mcp-server.js";
import type { TaskStore } from "../../server/tasks/store.js";
import { createLinkedPair } from "../../transports/memory/linked-pair.js";
import type { Transport, TransportSink } from "../../transports/transport.js";
import { connectInMemory } from "../connect-in-memory.js";
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
  /** Node A's heartbeat fails from now on, as if A were cut off or dead. */
  silenceA(): void;
  /** Where each handler ran, and the name of a node whose handler saw its task cancelled. */
  ranOn: string[];
  aborted: Promise<string>;
}

/** Short leases, so that a silent node's tasks are failed within the case. */
const LEASE_MS = 400;

/** The store as a node sees it, whose heartbeat can be made to fail. */
function silenceable(store: TaskStore): { store: TaskStore; silence(): void } {
  let silent = false;
  const heartbeat = store.heartbeat?.bind(store);
  const wrapped: TaskStore = Object.create(store);
  if (heartbeat)
    wrapped.heartbeat = (node, ttlMs) =>
      silent ? Promise.reject(new Error("this node lost its store")) : heartbeat(node, ttlMs);
  return {
    store: wrapped,
    silence: () => {
      silent = true;
    },
  };
}

/** The same tools on two servers, each on its own handle of one store: two nodes. */
function nodes(pair: TaskStorePair, now: () => number): Nodes {
  const ranOn: string[] = [];
  const aborted = gate<string>();
  const handleA = silenceable(pair.a);
  const node = (name: string, store: TaskStorePair["a"]) => {
    const server = createServer({
      name: `node-${name}`,
      version: "1",
      tasks: { store, now, pollIntervalMs: 5, leaseMs: LEASE_MS },
      onError: () => {}, // node A's failing heartbeat, reported once
    });
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
  return {
    a: node("a", handleA.store),
    b: node("b", pair.b),
    silenceA: handleA.silence,
    ranOn,
    aborted: aborted.opened,
  };
}

/**
 * A transport that names its session, as Streamable HTTP does: two in-memory connections
 * with one id stand for one client's session served by two nodes (each rebuilds it from
 * the shared session store).
 */
function withSessionId(transport: Transport, sessionId: string): Transport {
  return {
    binding: "memory",
    sessionId,
    start: (sink: TransportSink) => transport.start(sink),
    send: (message: JsonRpcMessage | JsonRpcMessage[]) => transport.send(message),
    close: () => transport.close(),
  };
}

async function sessionOn(server: McpServer, sessionId: string): Promise<{ client: Client; close(): Promise<void> }> {
  const [clientSide, serverSide] = createLinkedPair();
  await server.connect(withSessionId(serverSide, sessionId));
  const client = new Client({ name: "contract-client", version: "1", protocolVersion: "2025-11-25" });
  await client.connect(clientSide);
  return { client, close: () => client.close() };
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
    c("2025-11-25: one session's task made on node A is listed, read and cancelled through node B", async (n) => {
      // No principal: the task belongs to the session, which every node knows by its id.
      const onA = await sessionOn(n.a, "session-of-both-nodes");
      const onB = await sessionOn(n.b, "session-of-both-nodes");
      const other = await sessionOn(n.b, "another-session");
      try {
        const { task } = await onA.client.callToolAsTask("hang");
        assert.ok(task, "node A made a task");
        assert.equal((await onB.client.task(task.taskId).get()).status, "working");
        const listed = (await onB.client.request("tasks/list", {})) as { tasks: { taskId: string }[] };
        assert.deepEqual(
          listed.tasks.map((t) => t.taskId),
          [task.taskId],
        );
        // Another session, even on the same node, is told the task does not exist.
        await assert.rejects(other.client.task(task.taskId).get(), /Task not found/);
        assert.deepEqual(((await other.client.request("tasks/list", {})) as { tasks: unknown[] }).tasks, []);
        const cancelled = await onB.client.request("tasks/cancel", { taskId: task.taskId });
        assert.equal(cancelled.status, "cancelled");
        assert.equal(await n.aborted, "a");
      } finally {
        await onA.close();
        await onB.close();
        await other.close();
      }
    }),
    c("a task whose node stops heartbeating is failed by the other node; its requester learns why", async (n) => {
      const onA = await connectInMemory(n.a, { protocolVersion: "2026-07-28" });
      const onB = await connectInMemory(n.b, { protocolVersion: "2026-07-28" });
      try {
        const { task } = await onA.client.callToolAsTask("hang");
        assert.ok(task, "node A made a task");
        // Node B serves tasks (so it sweeps), and follows the task until it ends.
        assert.equal((await onB.client.task(task.taskId).get()).status, "working");
        n.silenceA();
        const failed = await onB.client
          .task(task.taskId)
          .result()
          .then(
            () => assert.fail("the task cannot complete"),
            (error: unknown) => error,
          );
        assert.match(String((failed as Error).message), /node running this task stopped/);
        // Node A, still running, hears it and stops the handler.
        assert.equal(await n.aborted, "a");
      } finally {
        await onA.close();
        await onB.close();
      }
    }),
  ];
}
