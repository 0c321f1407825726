import { createServer, type Server, type Socket, connect as tcpConnect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, type RunningRedis, startRedis } from "../../packages/redis/test/redis-server.js";
import { assertBuilt, waitFor } from "../interop/helpers.js";
import { type ClusterNode, startNode } from "./cluster.js";

// One node cut off from Redis (its connection goes through a TCP relay the test can cut)
// while another keeps it: the cut node refuses sessions, new and old, rather than serve
// state it can no longer check, and serves them again once Redis is back.

/** A TCP relay to Redis on its own port: `cut` drops every connection and refuses new ones. */
async function relay(target: number) {
  const port = await freePort();
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  const open = () =>
    new Promise<void>((resolve) => {
      server = createServer((client) => {
        const upstream = tcpConnect(target, "127.0.0.1");
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on("close", () => sockets.delete(s));
          s.on("error", () => {});
        }
        client.pipe(upstream).pipe(client);
      });
      server.listen(port, "127.0.0.1", () => resolve());
    });
  await open();
  return {
    url: `redis://127.0.0.1:${port}`,
    async cut() {
      await new Promise<void>((resolve) => {
        server?.close(() => resolve());
        for (const s of sockets) s.destroy();
      });
    },
    mend: open,
  };
}

let redis: RunningRedis;
let link: Awaited<ReturnType<typeof relay>>;
let near: ClusterNode;
let far: ClusterNode;

beforeAll(async () => {
  assertBuilt();
  redis = await startRedis();
  link = await relay(redis.port);
  [near, far] = await Promise.all([startNode({ redis: redis.url }), startNode({ redis: link.url })]);
}, 30_000);

afterAll(async () => {
  await Promise.all([near, far].map((n) => n?.kill()));
  await link?.cut();
  await redis?.stop();
});

/** Waits until an async condition holds; fails after `ms`. */
const until = (check: () => Promise<boolean>, what: string, ms: number) => waitFor(check, what, ms);

const post = (node: ClusterNode, body: unknown, session?: string) =>
  fetch(`http://127.0.0.1:${node.port}/mcp`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...(session && { "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" }),
    },
    body: JSON.stringify(body),
  });

const initialize = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "partition", version: "1" } },
};
const logging = (id: number) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name: "test_tool_with_logging", arguments: {} },
});
/** The log messages a tools/call answer carried (SSE) before its result. */
async function logsIn(response: Response): Promise<number> {
  const text = await response.text();
  return (text.match(/notifications\/message/g) ?? []).length;
}
const add = (id: number) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name: "add", arguments: { a: id, b: 1 } },
});

async function open(node: ClusterNode): Promise<string> {
  const response = await post(node, initialize);
  const session = response.headers.get("mcp-session-id");
  await response.text();
  if (!session) throw new Error(`no session (status ${response.status})`);
  await (await post(node, { jsonrpc: "2.0", method: "notifications/initialized" }, session)).text();
  return session;
}

describe("a node partitioned from Redis", () => {
  it("refuses sessions, new and held, while cut off, and serves them again once it is back", async () => {
    const session = await open(near);
    const kept = await open(near);
    // The far node holds copies of both.
    expect((await post(far, add(2), session)).status).toBe(200);
    expect((await post(far, add(2), kept)).status).toBe(200);
    expect(await logsIn(await post(far, logging(3), kept))).toBe(3);

    await link.cut();
    await waitFor(() => far.log().includes("Redis unreachable"), "the far node to notice", 10_000);
    // The session ends on the near node meanwhile: the far node cannot hear it.
    expect(
      (
        await fetch(`http://127.0.0.1:${near.port}/mcp`, {
          method: "DELETE",
          headers: { "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" },
        })
      ).status,
    ).toBe(204);
    let held: Response | undefined;
    await until(
      async () => {
        held = await post(far, add(3), session);
        await held.text();
        return held.status === 503;
      },
      "the far node to refuse the session it holds",
      10_000,
    );
    expect(held?.headers.get("retry-after")).toBe("5");
    const fresh = await post(far, initialize);
    expect(fresh.status).toBe(503);
    expect(fresh.headers.get("mcp-session-id")).toBeNull();
    // The near node, which reaches Redis, is not affected; a change made there now is
    // one the far node cannot hear of.
    expect(await open(near)).toBeTruthy();
    const quiet = await post(
      near,
      { jsonrpc: "2.0", id: 4, method: "logging/setLevel", params: { level: "error" } },
      kept,
    );
    expect(quiet.status).toBe(200);
    await quiet.text();

    await link.mend();
    await waitFor(() => far.log().includes("Redis reachable again"), "the far node to reconnect", 15_000);
    let after: Response | undefined;
    await until(
      async () => {
        after = await post(far, add(4), session);
        await after.text();
        return after.status !== 503;
      },
      "the far node to serve again",
      10_000,
    );
    // The session it held was ended elsewhere during the partition: not served stale.
    expect(after?.status).toBe(404);
    // The other one lives on, and the far node serves it again as it now is.
    expect(await logsIn(await post(far, logging(5), kept))).toBe(0);
    expect(await open(far)).toBeTruthy();
  }, 60_000);
});
