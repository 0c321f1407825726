import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Redis } from "ioredis";
import { Client, type ClientOptions } from "mcpkit/client";
import { streamableHttpClientTransport } from "mcpkit/http-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt } from "../interop/helpers.js";
import { type Cluster, recordingCallNodes, startCluster } from "./cluster.js";

// `mcpkit serve workspace --redis`: two nodes over one folder, Redis, nginx round-robin in
// front. What each node keeps for itself must not make the two disagree:
// - a client's roots: the node told that they changed may be the other one, so neither
//   keeps them (fail closed: the narrower roots hold at once on every node);
// - file watchers: both nodes see every change to the shared folder; a subscriber hears of
//   each change once, not once per node.

let cluster: Cluster;
let root: string;
let events: Redis;
const published: { key: string; event: { type: string; uri?: string; kind?: string } }[] = [];
const clients: Client[] = [];

beforeAll(async () => {
  assertBuilt();
  root = realpathSync(mkdtempSync(join(tmpdir(), "mcpkit-cluster-workspace-")));
  for (const dir of ["narrow", "other"]) mkdirSync(join(root, dir));
  writeFileSync(join(root, "narrow", "inside.txt"), "inside\n");
  writeFileSync(join(root, "other", "secret.txt"), "outside the narrow root\n");
  writeFileSync(join(root, "watched.txt"), "v1\n");
  writeFileSync(join(root, "sentinel.txt"), "v1\n");
  cluster = await startCluster(2, { server: "workspace", args: ["--root", root] });
  // What the nodes publish on the cluster's bus, as Redis carries it.
  events = new Redis(cluster.redis.url);
  events.on("message", (_channel: string, message: string) => published.push(JSON.parse(message)));
  await events.subscribe("mcpkit:events");
}, 60_000);

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  events?.disconnect();
  await cluster?.stop();
  if (root) rmSync(root, { recursive: true, force: true });
});

const fileUri = (...parts: string[]) => pathToFileURL(join(root, ...parts)).href;

/** A client whose requests go where `to()` says: the balancer, or one node. */
async function connect(options: Partial<ClientOptions>, to: () => string = () => cluster.url) {
  const upstreams: string[] = [];
  const client = new Client({ name: "cluster-workspace", version: "1", protocolVersion: "2025-11-25", ...options });
  await client.connect(
    streamableHttpClientTransport(cluster.url, {
      fetch: recordingCallNodes(upstreams, (url) => url.replace(cluster.url, to())),
    }),
  );
  clients.push(client);
  return { client, upstreams };
}

const nodeUrl = (n: number) => `http://127.0.0.1:${cluster.nodes[n]?.port}/mcp`;
const text = (result: { content?: unknown }) => JSON.stringify(result.content);

describe("serve workspace as a 2-node cluster behind nginx", () => {
  it("serves one session from both nodes: files read within the client's roots, asked for by each node", async () => {
    const { client, upstreams } = await connect({ roots: [{ uri: pathToFileURL(root).href }] });
    for (let n = 0; n < 4; n++) {
      const read = await client.callTool("read_file", { path: join(root, "narrow", "inside.txt") });
      expect(read.isError).toBeFalsy();
      expect(text(read)).toContain("inside");
      // A call is two POSTs (the call, the answer to its roots/list): one more moves the next call on.
      await client.ping();
    }
    expect(new Set(upstreams).size, `calls landed on ${upstreams.join(", ")}`).toBe(2);
  }, 30_000);

  it("a roots change told to one node narrows the roots on the other at once (fail closed)", async () => {
    let target = nodeUrl(0);
    const { client } = await connect({ roots: [{ uri: pathToFileURL(root).href }] }, () => target);
    const secret = { path: join(root, "other", "secret.txt") };
    // Node 0 opened the session and served the wide roots.
    expect((await client.callTool("read_file", secret)).isError).toBeFalsy();
    // The client narrows its roots; the notification lands on node 1.
    target = nodeUrl(1);
    client.setRoots([{ uri: pathToFileURL(join(root, "narrow")).href }]);
    await client.ping(); // on node 1, after the notification
    // Back on node 0: the file outside the new roots is refused.
    target = nodeUrl(0);
    const refused = await client.callTool("read_file", secret);
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(/outside|not allowed|roots/i);
    expect((await client.callTool("read_file", { path: join(root, "narrow", "inside.txt") })).isError).toBeFalsy();
  }, 30_000);

  it("a change to a shared file reaches a subscriber once, though both nodes see it", async () => {
    const updates: string[] = [];
    const { client } = await connect({});
    client.on("notifications/resources/updated", (params) => updates.push(String(params.uri)));
    await client.subscribe(fileUri("watched.txt"));
    await client.subscribe(fileUri("sentinel.txt"));
    // Both nodes now hold the session (round-robin), each with the subscriptions.
    await client.ping();
    await client.ping();

    const seen = (uri: string) => published.filter((p) => p.event.uri === uri);
    writeFileSync(join(root, "watched.txt"), "v2\n");
    // Both nodes published the change …
    await expect.poll(() => seen(fileUri("watched.txt")).length, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
    // … under one key, the same on both.
    expect(new Set(seen(fileUri("watched.txt")).map((p) => p.key)).size).toBe(1);
    // A later change is published after both: once the subscriber hears of it, it has
    // heard all it will of the first.
    writeFileSync(join(root, "sentinel.txt"), "v2\n");
    await expect.poll(() => updates.includes(fileUri("sentinel.txt")), { timeout: 10_000 }).toBe(true);
    expect(updates.filter((uri) => uri === fileUri("watched.txt"))).toHaveLength(1);
  }, 30_000);

  it("a new file changes the resource list once, though both nodes see it", async () => {
    const changes: string[] = [];
    const updates: string[] = [];
    const { client } = await connect({});
    client.on("notifications/resources/list_changed", () => changes.push("resources"));
    client.on("notifications/resources/updated", (params) => updates.push(String(params.uri)));
    await client.subscribe(fileUri("sentinel.txt"));
    await client.ping();
    await client.ping();
    const listChanges = () => published.filter((p) => p.event.type === "list_changed");
    const before = listChanges().length;
    writeFileSync(join(root, "new.txt"), "new\n");
    await expect.poll(() => listChanges().length - before, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
    expect(
      new Set(
        listChanges()
          .slice(before)
          .map((p) => p.key),
      ).size,
    ).toBe(1);
    writeFileSync(join(root, "sentinel.txt"), "v3\n");
    await expect.poll(() => updates.includes(fileUri("sentinel.txt")), { timeout: 10_000 }).toBe(true);
    expect(changes).toHaveLength(1);
  }, 30_000);
});
