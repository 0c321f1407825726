import { Client, type ClientOptions } from "mcpkit/client";
import { streamableHttpClientTransport } from "mcpkit/http-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningRedis, startRedis } from "../../packages/redis/test/redis-server.js";
import { assertBuilt, waitFor } from "../interop/helpers.js";
import { type Balancer, type ClusterNode, recordingCallNodes, startNginx, startNode } from "./cluster.js";

// Tasks on three real `mcpkit serve everything --redis` nodes behind nginx round-robin:
// an anonymous session's tasks are its own on every node (and no other session's), and a
// task whose node is killed (kill -9) is failed by another node within seconds, with a
// message that says why, instead of staying `working` until its TTL.

const LEASE = "2s";
let redis: RunningRedis;
let nodes: ClusterNode[];
let balancer: Balancer;
const clients: Client[] = [];

beforeAll(async () => {
  assertBuilt();
  redis = await startRedis();
  nodes = await Promise.all([0, 1, 2].map(() => startNode({ redis: redis.url, args: ["--task-lease", LEASE] })));
  balancer = await startNginx(nodes.map((n) => n.port));
}, 60_000);

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  await balancer?.stop();
  await Promise.all((nodes ?? []).map((n) => n.kill()));
  await redis?.stop();
});

/** A client through the balancer; `upstreamOf` tells which node answered each tools/call. */
async function connect(options: Partial<ClientOptions> = {}) {
  const callsOn: string[] = [];
  const client = new Client({ name: "task-nodes", version: "1", ...options });
  await client.connect(streamableHttpClientTransport(balancer.url, { fetch: recordingCallNodes(callsOn) }));
  clients.push(client);
  return { client, callsOn };
}

const ids = async (client: Client) =>
  ((await client.request("tasks/list", {})) as { tasks: { taskId: string }[] }).tasks.map((t) => t.taskId).sort();

describe("tasks on a 3-node cluster behind nginx", () => {
  it("an anonymous session lists its own tasks through every node, and another session none of them", async () => {
    const { client: mine } = await connect({ protocolVersion: "2025-11-25" });
    const { client: theirs } = await connect({ protocolVersion: "2025-11-25" });
    const made: string[] = [];
    for (let n = 0; n < 3; n++)
      made.push((await mine.callToolAsTask("slow_compute", { seconds: 60, label: `t${n}` })).task?.taskId as string);
    made.sort();
    const before = balancer.requests().length;
    // Round-robin: six lists land on every node twice.
    for (let n = 0; n < 3; n++) {
      expect(await ids(mine)).toEqual(made);
      expect(await ids(theirs)).toEqual([]);
    }
    const listedOn = new Set(
      balancer
        .requests()
        .slice(before)
        .map((line) => line.split(" ")[1]),
    );
    expect(listedOn.size).toBe(3);
    await expect(theirs.task(made[0] as string).get()).rejects.toMatchObject({ code: -32602 });
    for (const id of made) await mine.task(id).cancel();
  }, 60_000);

  it("a task whose node is killed (kill -9) is failed by another node within seconds", async () => {
    const { client, callsOn } = await connect({ protocolVersion: "2026-07-28" });
    const { task } = await client.callToolAsTask("slow_compute", { seconds: 600, label: "doomed" });
    const taskId = task?.taskId as string;
    const upstream = callsOn.at(-1) as string;
    const victim = nodes.find((n) => upstream.endsWith(`:${n.port}`)) as ClusterNode;
    expect(victim, `the node at ${upstream}`).toBeDefined();
    expect(await client.task(taskId).get()).toMatchObject({ status: "working" });

    const killed = Date.now();
    await victim.kill("SIGKILL");
    // The task is failed within the lease and a heartbeat or two.
    const seen = await waitFor(
      async () => {
        const task = await client.task(taskId).get();
        return task.status !== "working" && task;
      },
      "the task to be failed",
      15_000,
    );
    const after = Date.now() - killed;
    expect(seen).toMatchObject({
      status: "failed",
      statusMessage: expect.stringContaining("The server node running this task stopped"),
      error: { code: -32603 },
    });
    process.stdout.write(`task lease: failed ${after} ms after kill -9 (lease ${LEASE})\n`);
  }, 60_000);
});
