import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "mcpkit/client";
import { streamableHttpClientTransport } from "mcpkit/http-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningRedis, startRedis } from "../../packages/redis/test/redis-server.js";
import { type Balancer, recordingCallNodes, STATE_KEY, startNginx } from "../cluster/cluster.js";
import { assertBuilt } from "../interop/helpers.js";
import { notesEntry, textOf } from "./helpers.js";
import { type GatewayProcess, startGatewayProcess } from "./process.js";

// Three `mcpkit gateway --redis` nodes behind nginx round-robin (no sticky sessions) and a
// real redis-server, each running its own shared stdio upstream and reading its own copy
// of the file: a session's calls land on every node, a node killed loses no session, and an
// edit of each node's file adds a server on every node.

let redis: RunningRedis;
let nodes: GatewayProcess[] = [];
let balancer: Balancer;
let dir: string;
const config = { mcpServers: { notes: notesEntry("notes") } };

/** Each node's own file (a node reads and watches its own). */
const fileOf = (i: number) => join(dir, `node-${i}.mcp.json`);
function writeAll(content: object) {
  for (let i = 0; i < 3; i++) {
    writeFileSync(fileOf(i), JSON.stringify(content));
    chmodSync(fileOf(i), 0o600);
  }
}

beforeAll(async () => {
  assertBuilt();
  dir = mkdtempSync(join(tmpdir(), "mcpkit-gateway-cluster-"));
  writeAll(config);
  redis = await startRedis();
  nodes = await Promise.all(
    [0, 1, 2].map((i) =>
      startGatewayProcess(fileOf(i), ["--redis", redis.url, "--trust-proxy", "127.0.0.1"], {
        env: { MCPKIT_STATE_KEY: STATE_KEY },
      }),
    ),
  );
  balancer = await startNginx(nodes.map((n) => n.port));
}, 60_000);

afterAll(async () => {
  await balancer?.stop();
  await Promise.all(nodes.map((n) => n.stop()));
  await redis?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("a 3-node gateway cluster behind nginx", () => {
  for (const protocolVersion of ["2025-11-25", "2026-07-28"] as const) {
    it(`serves a ${protocolVersion} client's calls on every node`, async () => {
      const callsOn: string[] = [];
      const client = new Client({ name: "cluster", version: "1", protocolVersion });
      await client.connect(streamableHttpClientTransport(balancer.url, { fetch: recordingCallNodes(callsOn) }));
      try {
        expect((await client.tools()).map((t) => t.name)).toContain("notes_list_notes");
        for (let i = 0; i < 6; i++) expect(textOf(await client.callTool("notes_echo", { i }))).toBe(`{"i":${i}}`);
        expect(new Set(callsOn).size).toBe(3);
      } finally {
        await client.close();
      }
    });
  }

  it("keeps a session of a shared upstream when a node is killed, and every node reloads its own file", async () => {
    const client = new Client({ name: "cluster", version: "1", protocolVersion: "2025-11-25" });
    await client.connect(streamableHttpClientTransport(balancer.url));
    try {
      expect(textOf(await client.callTool("notes_list_notes"))).toBe("first note");
      const victim = nodes[1] as GatewayProcess;
      await victim.stop("SIGKILL");
      for (let i = 0; i < 4; i++) expect(textOf(await client.callTool("notes_echo", { i }))).toBe(`{"i":${i}}`);

      const alive = [nodes[0], nodes[2]] as GatewayProcess[];
      const from = alive.map((n) => n.log().length);
      writeAll({ mcpServers: { ...config.mcpServers, more: notesEntry("more") } });
      await Promise.all(alive.map((n, i) => n.printed("reloaded", from[i])));
      for (let i = 0; i < 4; i++) expect(textOf(await client.callTool("more_list_notes"))).toBe("first note");
    } finally {
      await client.close();
    }
  });
});
