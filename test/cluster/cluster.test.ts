import { readFileSync } from "node:fs";
import { Client as SdkClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema, ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { Client } from "mcpkit/client";
import { streamableHttpClientTransport } from "mcpkit/http-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRedis } from "../../packages/redis/test/redis-server.js";
import { assertBuilt, waitFor } from "../interop/helpers.js";
import { type Cluster, startCluster, startNginx } from "./cluster.js";

// Three real `mcpkit serve everything --redis` nodes behind nginx round-robin (no sticky
// sessions) and a real redis-server: whole sessions of mcpkit's client and the official
// SDK client, whose requests land on different nodes, and a node killed mid-session.

let cluster: Cluster;

beforeAll(async () => {
  assertBuilt();
  cluster = await startCluster(3);
}, 30_000);

afterAll(async () => {
  await cluster?.stop();
});

const WATCHED = "test://watched-resource";
const textOf = (result: unknown) => ((result as { content: { text?: string }[] }).content[0] as { text?: string }).text;

/** The nodes (upstream addresses) the balancer sent requests of a method to since `from`. */
const upstreams = (from: number, method: string) =>
  new Set(
    cluster.balancer
      .requests()
      .slice(from)
      .filter((line) => line.startsWith(`${method} `))
      .map((line) => line.split(" ")[1]),
  );

describe("a 3-node cluster behind nginx round-robin", () => {
  it("is balanced by the nginx configuration docs/deployment.md gives", async () => {
    const doc = readFileSync(new URL("../../docs/deployment.md", import.meta.url), "utf8");
    const block = /```nginx\n([\s\S]*?)```/.exec(doc)?.[1];
    expect(block).toContain("upstream mcp");
    const ports = cluster.nodes.map((n) => n.port);
    // The document's file with this cluster's ports, plus what a test run needs: no
    // daemon, and its files in a temporary directory.
    const balancer = await startNginx(ports, (dir, port) =>
      (block as string)
        .replace(/127\.0\.0\.1:310([123])/g, (_m, n: string) => `127.0.0.1:${ports[Number(n) - 1]}`)
        .replace("listen 8080;", `listen 127.0.0.1:${port};`)
        .replace(
          "http {",
          `http {\n  access_log off;\n${["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map((t) => `  ${t}_temp_path ${dir}/${t === "client_body" ? "body" : t};`).join("\n")}`,
        )
        .replace(
          "events {}",
          `daemon off;\nmaster_process off;\npid ${dir}/nginx.pid;\nerror_log ${dir}/error.log;\nevents {}`,
        ),
    );
    const client = new Client({ name: "doc-config", version: "1", protocolVersion: "2025-11-25" });
    try {
      await client.connect(streamableHttpClientTransport(balancer.url));
      for (let a = 0; a < 4; a++) expect(textOf(await client.callTool("add", { a, b: 1 }))).toContain(`${a + 1}`);
    } finally {
      await client.close();
      await balancer.stop();
    }
  });

  it("serves a whole legacy session of mcpkit's client across the nodes", async () => {
    const from = cluster.balancer.requests().length;
    const updates: unknown[] = [];
    let streamOpen = false;
    const recording: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if ((init?.method ?? "GET") === "GET" && response.ok) streamOpen = true;
      return response;
    };
    const client = new Client({
      name: "cluster-mcpkit",
      version: "1",
      protocolVersion: "2025-11-25",
      elicitation: async () => ({ action: "accept", content: { username: "ada", email: "ada@example.com" } }),
    });
    await client.connect(streamableHttpClientTransport(cluster.url, { fetch: recording }));
    try {
      client.on("notifications/resources/updated", (n) => updates.push(n));
      for (let a = 1; a <= 3; a++) expect(textOf(await client.callTool("add", { a, b: 10 }))).toContain(`${a + 10}`);
      const progress: unknown[] = [];
      const done = await client.callTool("test_tool_with_progress", {}, { onprogress: (p) => progress.push(p) });
      expect(textOf(done)).toBe("Progress test completed");
      expect(progress).toHaveLength(3);
      const elicited = await client.callTool("test_elicitation", { message: "Who are you?" });
      expect(textOf(elicited)).toContain('"username":"ada"');
      // Updates reach a client on its GET stream: published before it is open, they are not for it.
      await waitFor(() => streamOpen, "the client's GET stream", 10_000);
      await client.subscribe(WATCHED);
      await client.callTool("test_update_watched_resource", { text: "changed by mcpkit" });
      await waitFor(() => updates.length >= 1, "notifications/resources/updated", 10_000);
    } finally {
      await client.close();
    }
    // Round-robin, no stickiness: the session's POSTs went to every node.
    expect(upstreams(from, "POST").size).toBe(3);
  });

  it("serves 2026-07-28 requests on any node: multi round-trip elicitation and a listen stream across nodes", async () => {
    const from = cluster.balancer.requests().length;
    const client = new Client({
      name: "cluster-modern",
      version: "1",
      elicitation: async () => ({ action: "accept", content: { username: "lin", email: "lin@example.com" } }),
    });
    const description = await client.connect(streamableHttpClientTransport(cluster.url));
    try {
      expect(description.era).toBe("modern");
      const updates: unknown[] = [];
      const subscription = await client.listen({ resourceSubscriptions: [WATCHED] }, (n) => updates.push(n));
      for (let round = 0; round < 3; round++) {
        // Each retry carries state signed by the node that asked; any node must accept it.
        const elicited = await client.callTool("test_elicitation", { message: `Who? (${round})` });
        expect(textOf(elicited)).toContain('"username":"lin"');
      }
      await client.callTool("test_update_watched_resource", { text: "changed in the modern era" });
      await waitFor(() => updates.length >= 1, "the update on the listen stream", 10_000);
      await subscription.close();
    } finally {
      await client.close();
    }
    expect(upstreams(from, "POST").size).toBe(3);
  });

  it("serves a whole session of the official SDK client, and resumes it on another node when its GET node is killed", async () => {
    const from = cluster.balancer.requests().length;
    const updates: unknown[] = [];
    let streamNode: string | undefined;
    // Learns from nginx's X-Upstream header which node holds the client's GET stream.
    const recording: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if ((init?.method ?? "GET") === "GET" && response.ok)
        streamNode = response.headers.get("x-upstream") ?? undefined;
      return response;
    };
    const transport = new StreamableHTTPClientTransport(new URL(cluster.url), {
      fetch: recording,
      reconnectionOptions: {
        initialReconnectionDelay: 100,
        maxReconnectionDelay: 500,
        reconnectionDelayGrowFactor: 1.5,
        maxRetries: 50,
      },
    });
    const client = new SdkClient({ name: "cluster-sdk", version: "1" }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async () => ({
      action: "accept",
      content: { username: "grace", email: "grace@example.com" },
    }));
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      updates.push(n.params);
    });
    await client.connect(transport);
    try {
      expect(client.getServerVersion()?.name).toBe("mcpkit-everything");
      for (let a = 1; a <= 3; a++) {
        const sum = await client.callTool({ name: "add", arguments: { a, b: 20 } });
        expect(textOf(sum)).toContain(`${a + 20}`);
      }
      const progress: unknown[] = [];
      await client.callTool({ name: "test_tool_with_progress", arguments: {} }, undefined, {
        onprogress: (p) => progress.push(p),
      });
      expect(progress).toHaveLength(3);
      const elicited = await client.callTool({ name: "test_elicitation", arguments: { message: "Who?" } });
      expect(textOf(elicited)).toContain('"username":"grace"');
      await waitFor(() => streamNode, "the client's GET stream", 10_000);
      await client.subscribeResource({ uri: WATCHED });
      await client.callTool({ name: "test_update_watched_resource", arguments: { text: "before the kill" } });
      await waitFor(() => updates.length === 1, "the update before the kill", 10_000);
      expect(upstreams(from, "POST").size).toBe(3);

      // kill -9 the node holding the GET stream; updates published after it must all
      // arrive, once each, through whichever node the client resumes on.
      const victim = cluster.nodes.find((n) => streamNode === `127.0.0.1:${n.port}`);
      expect(victim, `the GET stream's node (${streamNode})`).toBeDefined();
      await victim?.kill("SIGKILL");
      const after = 5;
      for (let n = 1; n <= after; n++) {
        await client.callTool({ name: "test_update_watched_resource", arguments: { text: `after the kill ${n}` } });
      }
      await waitFor(() => updates.length >= 1 + after, `${after} updates after the kill`, 15_000);
      // One more as a marker: once it is in, anything replayed twice would have come before it.
      await client.callTool({ name: "test_update_watched_resource", arguments: { text: "marker" } });
      await waitFor(() => updates.length >= 2 + after, "the marker update", 15_000);
      expect(updates).toHaveLength(2 + after);
      expect(streamNode).not.toBe(`127.0.0.1:${victim?.port}`);
      if (victim) await cluster.revive(victim);
    } finally {
      await client.close();
    }
  });

  it("resumes mcpkit's client's GET stream on another node when its node is killed: 0 lost, 0 twice", async () => {
    const updates: unknown[] = [];
    let streamNode: string | undefined;
    const recording: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if ((init?.method ?? "GET") === "GET" && response.ok)
        streamNode = response.headers.get("x-upstream")?.split(", ").at(-1);
      return response;
    };
    const client = new Client({ name: "cluster-resume", version: "1", protocolVersion: "2025-11-25" });
    await client.connect(
      streamableHttpClientTransport(cluster.url, {
        fetch: recording,
        reconnect: { initialDelayMs: 100, maxDelayMs: 500, maxRetries: 50 },
      }),
    );
    try {
      client.on("notifications/resources/updated", (n) => updates.push(n));
      // Updates reach a client on its GET stream: published before it is open, they are not for it.
      await waitFor(() => streamNode, "the client's GET stream", 10_000);
      await client.subscribe(WATCHED);
      await client.callTool("test_update_watched_resource", { text: "before the kill" });
      await waitFor(() => updates.length === 1, "the update before the kill", 10_000);
      const victim = cluster.nodes.find((n) => streamNode === `127.0.0.1:${n.port}`);
      expect(victim, `the GET stream's node (${streamNode})`).toBeDefined();
      await victim?.kill("SIGKILL");
      const after = 5;
      for (let n = 1; n <= after; n++) {
        await client.callTool("test_update_watched_resource", { text: `after the kill ${n}` });
      }
      await waitFor(() => updates.length >= 1 + after, `${after} updates after the kill`, 15_000);
      await client.callTool("test_update_watched_resource", { text: "marker" });
      await waitFor(() => updates.length >= 2 + after, "the marker update", 15_000);
      expect(updates).toHaveLength(2 + after);
      expect(streamNode).not.toBe(`127.0.0.1:${victim?.port}`);
      if (victim) await cluster.revive(victim);
    } finally {
      await client.close();
    }
  });

  it("answers a request whose node is killed mid-call with an error the client can act on, not a hang", async () => {
    const live = cluster.nodes.filter((n) => n.alive());
    expect(live.length).toBeGreaterThanOrEqual(2);
    let runningOn: string | undefined;
    const recording: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      // After a dead node, nginx names every upstream it tried: the last one answered.
      if (typeof init?.body === "string" && init.body.includes("test_slow"))
        runningOn = response.headers.get("x-upstream")?.split(", ").at(-1);
      return response;
    };
    const client = new Client({
      name: "cluster-fault",
      version: "1",
      protocolVersion: "2025-11-25",
      timeoutMs: 60_000,
    });
    await client.connect(
      streamableHttpClientTransport(cluster.url, {
        fetch: recording,
        reconnect: { initialDelayMs: 100, maxDelayMs: 500, maxRetries: 30 },
      }),
    );
    try {
      let progressed = false;
      const started = Date.now();
      const call = client.callTool("test_slow", { steps: 100, ms: 100 }, { onprogress: () => (progressed = true) });
      const outcome = call.then(
        () => "answered",
        (error: Error) => error.message,
      );
      await waitFor(() => progressed, "the first progress of test_slow", 10_000);
      const victim = live.find((n) => runningOn === `127.0.0.1:${n.port}`);
      expect(victim, `the node running the call (${runningOn})`).toBeDefined();
      await victim?.kill("SIGKILL");
      // The call would take 10 s; the node's heartbeat lapses after 3 s.
      expect(await outcome).toContain("stopped before answering it; send the request again");
      expect(Date.now() - started).toBeLessThan(10_000);
      if (victim) await cluster.revive(victim);
    } finally {
      await client.close();
    }
  });

  it("refuses new sessions while Redis is down, says so, and recovers when it is back", async () => {
    const live = cluster.nodes.filter((n) => n.alive());
    const port = cluster.redis.port;
    await cluster.redis.stop(true);
    const initialize = () =>
      fetch(cluster.url, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "outage", version: "1" } },
        }),
      });
    const refused = await initialize();
    expect(refused.status).toBe(503);
    expect(refused.headers.get("mcp-session-id")).toBeNull();
    await waitFor(
      () => live.every((n) => n.log().includes("Redis unreachable")),
      "every node to log the outage",
      10_000,
    );

    cluster.redis = await startRedis(port);
    await waitFor(
      () => live.every((n) => n.log().includes("Redis reachable again")),
      "every node to log the recovery",
      15_000,
    );
    // Each node serves sessions again once its next heartbeat reaches Redis (within 1 s).
    for (const node of live) {
      const serves = async () => {
        const response = await fetch(`http://127.0.0.1:${node.port}/mcp`, {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
          body: JSON.stringify({
            jsonrpc: "2.0",
            id: 1,
            method: "initialize",
            params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "probe", version: "1" } },
          }),
        });
        await response.text();
        return response.status === 200;
      };
      await waitFor(serves, `node ${node.port} to serve sessions again`, 10_000);
    }
    const client = new Client({
      name: "after-outage",
      version: "1",
      protocolVersion: "2025-11-25",
      elicitation: async () => ({ action: "accept", content: { username: "back", email: "back@example.com" } }),
    });
    await client.connect(streamableHttpClientTransport(cluster.url));
    try {
      expect(textOf(await client.callTool("add", { a: 1, b: 1 }))).toContain("2");
      // The answer lands on another node and is relayed: pub/sub was subscribed again.
      for (let i = 0; i < live.length; i++) {
        expect(textOf(await client.callTool("test_elicitation", { message: "Still there?" }))).toContain("back");
      }
    } finally {
      await client.close();
    }
  });
});
