import { Client, type ClientOptions } from "mcpkit/client";
import { streamableHttpClientTransport } from "mcpkit/http-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningRedis, startRedis } from "../../packages/redis/test/redis-server.js";
import { assertBuilt, waitFor as waitUntil } from "../interop/helpers.js";
import { type ClusterNode, startNode } from "./cluster.js";

// Tasks on two real `mcpkit serve everything --redis` nodes sharing one Redis: a task made
// through node A is answered, awaited and cancelled through node B, while its handler runs
// on A. Each client talks to one node directly, as a balancer might send it.

let redis: RunningRedis;
let a: ClusterNode;
let b: ClusterNode;
const clients: Client[] = [];

beforeAll(async () => {
  assertBuilt();
  redis = await startRedis();
  [a, b] = await Promise.all([startNode({ redis: redis.url }), startNode({ redis: redis.url })]);
}, 60_000);

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await Promise.all([a?.kill(), b?.kill()]);
  await redis?.stop();
});

async function connect(node: ClusterNode, options: Partial<ClientOptions> = {}): Promise<Client> {
  const client = new Client({ name: `tasks-on-${node.port}`, version: "1", protocolVersion: "2026-07-28", ...options });
  await client.connect(streamableHttpClientTransport(`http://127.0.0.1:${node.port}/mcp`));
  clients.push(client);
  return client;
}

/** Asks again until `done` accepts the answer (15 s at most). */
async function pollUntil<T>(ask: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  return waitUntil(
    async () => {
      const value = await ask();
      return done(value) ? { value } : undefined;
    },
    what,
    15_000,
  ).then((answer) => answer.value);
}

describe("tasks on a 2-node Redis cluster", () => {
  it("a task made through node A asks, is answered through node B, and finishes there", async () => {
    // A task may ask only what the request that made it declared; this client never answers.
    const onA = await connect(a, { elicitation: () => ({ action: "decline" }) });
    const started = await onA.callToolAsTask("confirm_delete", { filename: "ledger.csv" });
    const taskId = started.task?.taskId as string;
    expect(taskId).toBeTruthy();
    await pollUntil(
      () => onA.task(taskId).get(),
      (task) => task.status === "input_required",
      "the task to ask on node A",
    );

    const asked: string[] = [];
    const onB = await connect(b, {
      elicitation: (params) => {
        asked.push(params.message);
        return { action: "accept", content: { confirm: true } };
      },
    });
    const result = await onB.task(taskId).result();
    expect(result.content).toEqual([{ type: "text", text: "Deleted ledger.csv" }]);
    expect(asked).toEqual(["Delete ledger.csv?"]);
    expect(await onA.task(taskId).get()).toMatchObject({ status: "completed" });
  }, 40_000);

  it("a task running on node A is cancelled through node B", async () => {
    const onA = await connect(a);
    const started = await onA.callToolAsTask("slow_compute", { seconds: 60, label: "long" });
    const taskId = started.task?.taskId as string;
    const onB = await connect(b);
    expect(await onB.task(taskId).get()).toMatchObject({ status: "working" });
    await onB.task(taskId).cancel();
    expect(await onA.task(taskId).get()).toMatchObject({ status: "cancelled" });
  }, 40_000);
});
