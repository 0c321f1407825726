// The gateway's figure: the same stdio upstream (bench/servers/mcpkit-stdio.mjs, the echo
// tool) behind `mcpkit serve proxy --port` and behind `mcpkit gateway --port` with what a
// gateway adds on every call (a policy, the namespacing rule, the audit log to a file), on
// one node; and three gateway nodes with Redis behind nginx against one behind the same
// nginx. calls/s with 32 keep-alive clients, p50 of sequential calls, and the CPU per call
// of the front process (the upstream's is the same in both, and not counted). Targets: the
// gateway adds at most 0.1 ms to the p50 and 15 % to the CPU per call of the proxy.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureSystemTools } from "../../scripts/system-tools.mjs";
import { HttpPeer, httpLatency, httpThroughput, newAgent } from "../lib/http-client.mjs";
import { startMcpkit } from "../lib/mcpkit-command.mjs";
import { startNginx } from "../lib/nginx.mjs";
import { cpuSeconds } from "../lib/proc.mjs";
import { redisServer } from "../lib/redis.mjs";
import { ratioCI, summarize } from "../lib/stats.mjs";

export const GATEWAY_WIRES = ["stateful", "modern"];
const STATE_KEY = "bench-gateway-state-key-0123456789abcdef";

/** The gateway's configuration: the upstream, its echo served as "echo" (the load calls it so), a policy, an audit file. */
function gatewayConfig(dir, upstream) {
  const file = join(dir, "gateway.mcp.json");
  writeFileSync(
    file,
    JSON.stringify({
      mcpServers: { bench: { command: process.execPath, args: [upstream] } },
      gateway: {
        audit: "audit.jsonl",
        servers: { bench: { tools: { rename: { echo: "echo" } } } },
        policy: [{ when: { signedIn: false }, allow: ["bench/echo"] }],
      },
    }),
    { mode: 0o600 },
  );
  return file;
}

const SETUPS = [
  { key: "proxy", nodes: 1, kind: "proxy", nginx: false },
  { key: "gateway", nodes: 1, kind: "gateway", nginx: false, against: "proxy" },
  { key: "gatewayBehindNginx", nodes: 1, kind: "gateway", nginx: true },
  { key: "gatewayCluster", nodes: 3, kind: "gateway", nginx: true, redis: true, against: "gatewayBehindNginx" },
];

async function startSetup(setup, { server, config }) {
  const upstream = server("mcpkit-stdio");
  const dir = mkdtempSync(join(tmpdir(), "mcpkit-bench-gateway-"));
  const redis = setup.redis ? await redisServer() : undefined;
  const nodes = [];
  try {
    // Each gateway node has a configuration of its own, as a cluster's nodes do: an audit
    // file has one writer (the gateway refuses to share it).
    const nodeCommand = (i) => {
      if (setup.kind === "proxy")
        return [
          ["serve", "proxy"],
          ["--", process.execPath, upstream],
        ];
      const nodeDir = join(dir, `node-${i}`);
      mkdirSync(nodeDir);
      return [["gateway"], ["--config", gatewayConfig(nodeDir, upstream), ...(redis ? ["--redis", redis.url] : [])]];
    };
    const options = { env: { MCPKIT_STATE_KEY: STATE_KEY }, nodeArgs: config.gateway.nodeArgs };
    for (let i = 0; i < setup.nodes; i++) nodes.push(await startMcpkit(...nodeCommand(i), options));
    const nginx = setup.nginx ? await startNginx(nodes.map((n) => n.port)) : undefined;
    return { nodes, nginx, redis, port: nginx?.port ?? nodes[0].port, dir };
  } catch (error) {
    await Promise.all(nodes.map((n) => n.close()));
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

async function measure(running, wire, config) {
  const { connections, seconds, warmupSeconds, latencyCalls } = config.gateway;
  const agent = newAgent(connections);
  const peers = Array.from({ length: connections }, () => new HttpPeer(running.port, agent));
  const modern = wire === "modern";
  try {
    if (!modern) for (const peer of peers) await peer.initialize();
    await httpThroughput(peers, { modern, seconds: warmupSeconds });
    const cpu = () => running.nodes.reduce((sum, n) => sum + cpuSeconds(n.pid), 0);
    const cpu0 = cpu();
    const load = await httpThroughput(peers, { modern, seconds });
    const cpu1 = cpu();
    const latency = await httpLatency(peers[0], { modern, calls: latencyCalls });
    return {
      callsPerSec: load.calls / load.seconds,
      p50Ms: latency.p50,
      p99Ms: latency.p99,
      cpuUsPerCall: ((cpu1 - cpu0) * 1e6) / load.calls,
    };
  } finally {
    agent.destroy();
  }
}

/** @param {{ config: object, server: (name: string) => string, log: (line: string) => void }} context */
export async function gatewaySuite(context) {
  const { config, log } = context;
  if (!ensureSystemTools((line) => log(line.trimEnd())))
    throw new Error("the gateway scenario needs redis-server and nginx");
  const samples = Object.fromEntries(SETUPS.map((s) => [s.key, Object.fromEntries(GATEWAY_WIRES.map((w) => [w, []]))]));
  for (let round = 0; round < config.rounds; round++) {
    for (let i = 0; i < SETUPS.length; i++) {
      const setup = SETUPS[(i + round) % SETUPS.length];
      const running = await startSetup(setup, context);
      try {
        for (const wire of GATEWAY_WIRES) {
          const sample = await measure(running, wire, config);
          samples[setup.key][wire].push(sample);
          log(
            `gateway ${wire} round ${round + 1}/${config.rounds} ${setup.key}: ${Math.round(sample.callsPerSec)} calls/s, ` +
              `p50 ${(sample.p50Ms * 1000).toFixed(0)} µs, ${sample.cpuUsPerCall.toFixed(1)} µs CPU/call`,
          );
        }
      } finally {
        await running.nginx?.stop();
        await Promise.all(running.nodes.map((n) => n.close()));
        rmSync(running.dir, { recursive: true, force: true });
      }
    }
  }
  const out = {};
  for (const wire of GATEWAY_WIRES) {
    out[wire] = {};
    for (const setup of SETUPS) {
      const xs = samples[setup.key][wire];
      out[wire][setup.key] = {
        nodes: setup.nodes,
        callsPerSec: summarize(xs.map((s) => s.callsPerSec)),
        p50Ms: summarize(xs.map((s) => s.p50Ms)),
        p99Ms: summarize(xs.map((s) => s.p99Ms)),
        cpuUsPerCall: summarize(xs.map((s) => s.cpuUsPerCall)),
      };
    }
    // Paired within each round: the gateway against the proxy, three nodes against one.
    const of = (key, field) => samples[key][wire].map((x) => x[field]);
    out[wire].vs = Object.fromEntries(
      SETUPS.filter((s) => s.against).map((s) => [
        s.key,
        {
          cpu: ratioCI(of(s.key, "cpuUsPerCall"), of(s.against, "cpuUsPerCall")),
          addedP50Ms: summarize(of(s.key, "p50Ms").map((p, k) => p - (of(s.against, "p50Ms")[k] ?? p))),
        },
      ]),
    );
  }
  return out;
}
