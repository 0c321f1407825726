import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningRedis, startRedis } from "../../packages/redis/test/redis-server.js";
import { assertBuilt, waitFor } from "../interop/helpers.js";
import { type ClusterNode, startNode } from "./cluster.js";

// 10,000 legacy sessions opened across three `mcpkit serve everything --redis` nodes, left
// idle: Redis expires them on time (no node sweeps) and its memory returns to where it was.

const SESSIONS = 10_000;
const IDLE_MS = 3000;

let redis: RunningRedis;
let nodes: ClusterNode[] = [];
let probe: Redis;

beforeAll(async () => {
  assertBuilt();
  redis = await startRedis();
  // Every session comes from 127.0.0.1: the per-client cap (a tenth of --max-sessions per
  // node) would otherwise end this one client's unused sessions beyond 1,000 per node.
  const flags = ["--idle-timeout", `${IDLE_MS}ms`, "--max-sessions", "100000"];
  nodes = await Promise.all([0, 1, 2].map(() => startNode({ redis: redis.url, args: flags })));
  probe = new Redis(redis.url);
}, 30_000);

afterAll(async () => {
  probe?.disconnect();
  await Promise.all(nodes.map((n) => n.kill()));
  await redis?.stop();
});

const usedMemory = async () => Number(/used_memory:(\d+)/.exec(await probe.info("memory"))?.[1]);
const sessionKeys = async () => (await probe.keys("mcpkit:session:*")).length;

async function initialize(port: number): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${port}/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "load", version: "1" } },
    }),
  });
  await response.text();
  const id = response.headers.get("mcp-session-id");
  if (response.status !== 200 || !id) throw new Error(`initialize on ${port}: ${response.status}`);
  return id;
}

describe("10,000 sessions on a 3-node cluster", () => {
  it("are all stored, expire when idle, and leave Redis as it was", async () => {
    const baseline = await usedMemory();
    let next = 0;
    const first = Date.now();
    const ids: string[] = [];
    const openedAt: number[] = [];
    const worker = async () => {
      while (next < SESSIONS) {
        const n = next++;
        ids.push(await initialize((nodes[n % nodes.length] as ClusterNode).port));
        openedAt.push(Date.now());
      }
    };
    await Promise.all(Array.from({ length: 48 }, worker));
    const opened = Date.now();
    expect(new Set(ids).size).toBe(SESSIONS);
    // Sessions opened within the last idle timeout are certainly still stored.
    const now = Date.now();
    const recent = openedAt.filter((t) => now - t < IDLE_MS).length;
    expect(await sessionKeys()).toBeGreaterThanOrEqual(recent);
    expect(recent).toBeGreaterThan(0);

    // No request since: every session lapses by 1.25 × the idle timeout after it was opened.
    const deadline = opened + IDLE_MS * 1.25 + 10_000;
    await waitFor(async () => (await sessionKeys()) === 0, "every session to lapse", deadline - Date.now());
    const gone = Date.now();
    expect(await sessionKeys()).toBe(0);
    // Not before its time: the last session opened was kept at least the idle timeout.
    expect(gone - opened).toBeGreaterThanOrEqual(IDLE_MS * 0.9);
    expect(await usedMemory()).toBeLessThan(baseline + 256 * 1024);
    process.stdout.write(
      `opened ${SESSIONS} sessions in ${opened - first} ms; all expired ${gone - opened} ms after the last; memory ${baseline} → ${await usedMemory()} bytes\n`,
    );
  }, 60_000);
});
