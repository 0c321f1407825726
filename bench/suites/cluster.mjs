// The cluster figure: three mcpkit nodes with their sessions, SSE events and bus in a real
// redis-server (@mcpkit/redis), behind nginx round-robin with no stickiness, against one
// node with the in-memory stores behind the same nginx, on the same machine. Per call:
// the nodes' CPU (summed), nginx's and Redis's, and the commands Redis ran (INFO
// commandstats), on the 2025 wire with sessions and on the stateless 2026-07-28 wire.
//
// On a 2-core machine the three nodes, nginx, Redis and the load client share two cores,
// so calls/s cannot grow with the nodes, and three processes cost more per call than one
// whoever they are (the bare rows show it): the figures this machine can judge are Redis's
// share (three Redis-backed nodes against three in-memory ones, same split) and the
// proxy's added cost (one node behind nginx against the same node reached directly).
import { ensureSystemTools } from "../../scripts/system-tools.mjs";
import { HttpPeer, httpLatency, httpThroughput, newAgent } from "../lib/http-client.mjs";
import { startHttpServer } from "../lib/http-server.mjs";
import { startNginx } from "../lib/nginx.mjs";
import { cpuSeconds } from "../lib/proc.mjs";
import { commandDelta, commandStats, redisServer } from "../lib/redis.mjs";
import { pairedRatio, ratioCI, summarize } from "../lib/stats.mjs";

export const CLUSTER_WIRES = ["stateful", "modern"];

/**
 * What runs behind nginx. Three in-memory nodes can serve only the stateless wire (a session
 * lives on one node); that row tells what three processes on this machine cost by
 * themselves, apart from Redis.
 */
export const SETUPS = [
  { key: "single", nodes: 1, script: "mcpkit-http", redis: false, wires: CLUSTER_WIRES },
  { key: "cluster", nodes: 3, script: "mcpkit-redis-http", redis: true, wires: CLUSTER_WIRES },
  { key: "three", nodes: 3, script: "mcpkit-http", redis: false, wires: ["modern"] },
  // The same split for a server with no framework: what three processes cost on this
  // machine whoever serves them (compared with one bare node, not with mcpkit's).
  { key: "bareSingle", nodes: 1, script: "bare-http", redis: false, wires: ["modern"] },
  { key: "bareThree", nodes: 3, script: "bare-http", redis: false, wires: ["modern"], against: "bareSingle" },
  // One node reached without nginx: what the proxy adds to a call (its own CPU and the
  // node's extra work), against the "single" row.
  { key: "direct", nodes: 1, script: "mcpkit-http", redis: false, wires: ["modern"], proxy: false },
];

async function startSetup(setup, { server, config }) {
  const { nodeArgs } = config.cluster;
  const redis = setup.redis ? await redisServer() : undefined;
  const env = redis ? { BENCH_REDIS_URL: redis.url } : {};
  const nodes = [];
  try {
    // Every node serves both wires: sessions for initialize, and 2026-07-28 requests alone.
    for (let i = 0; i < setup.nodes; i++)
      nodes.push(await startHttpServer(server(setup.script), { mode: "stateful", env, nodeArgs }));
    const nginx = setup.proxy === false ? undefined : await startNginx(nodes.map((n) => n.port));
    return { nodes, nginx, redis };
  } catch (error) {
    await Promise.all(nodes.map((n) => n.close()));
    throw error;
  }
}

/** The clients of one wire, through nginx (each with its own session on the 2025 wire). */
async function clients(running, wire, connections) {
  const agent = newAgent(connections);
  const port = running.nginx?.port ?? running.nodes[0].port;
  const peers = Array.from({ length: connections }, () => new HttpPeer(port, agent));
  if (wire !== "modern") for (const peer of peers) await peer.initialize();
  return { agent, peers, modern: wire === "modern" };
}

async function measure(running, { peers, modern }, config) {
  const { seconds, settleSeconds, latencyCalls } = config.cluster;
  const cpu = () => ({
    nodes: running.nodes.reduce((sum, n) => sum + cpuSeconds(n.pid), 0),
    nginx: running.nginx ? cpuSeconds(running.nginx.pid) : 0,
    redis: running.redis ? cpuSeconds(running.redis.pid) : 0,
  });
  await httpThroughput(peers, { modern, seconds: settleSeconds });
  const stats0 = running.redis ? await commandStats(running.redis.port) : {};
  const cpu0 = cpu();
  const load = await httpThroughput(peers, { modern, seconds });
  const cpu1 = cpu();
  const commands = running.redis ? commandDelta(stats0, await commandStats(running.redis.port)) : {};
  const latency = await httpLatency(peers[0], { modern, calls: latencyCalls });
  const perCall = (s) => (s * 1e6) / load.calls;
  return {
    callsPerSec: load.calls / load.seconds,
    calls: load.calls,
    seconds: load.seconds,
    p50Ms: latency.p50,
    p99Ms: latency.p99,
    nodeCpuUsPerCall: perCall(cpu1.nodes - cpu0.nodes),
    nginxCpuUsPerCall: perCall(cpu1.nginx - cpu0.nginx),
    redisCpuUsPerCall: perCall(cpu1.redis - cpu0.redis),
    redisCommands: commands,
    protocolVersion: modern ? "2026-07-28" : peers[0].version,
  };
}

/** @param {{ config: object, server: (name: string) => string, log: (line: string) => void }} context */
export async function clusterSuite(context) {
  const { config, log } = context;
  if (!ensureSystemTools((line) => log(line.trimEnd())))
    throw new Error("the cluster scenario needs redis-server and nginx");
  const samples = Object.fromEntries(SETUPS.map((s) => [s.key, Object.fromEntries(s.wires.map((w) => [w, []]))]));
  for (let round = 0; round < config.rounds; round++) {
    for (let i = 0; i < SETUPS.length; i++) {
      const setup = SETUPS[(i + round) % SETUPS.length];
      const running = await startSetup(setup, context);
      const byWire = new Map();
      try {
        // Every wire warmed up before any is measured: three nodes share the calls, and each
        // needs seconds of them before its JIT settles. The warm-up also brings every
        // session to every node (one GET each, the first time).
        for (const wire of setup.wires) {
          const wired = await clients(running, wire, config.cluster.connections);
          byWire.set(wire, wired);
          await httpThroughput(wired.peers, { modern: wired.modern, seconds: config.cluster.warmupSeconds });
        }
        for (const wire of setup.wires) {
          const sample = await measure(running, byWire.get(wire), config);
          samples[setup.key][wire].push(sample);
          const redis = Object.entries(sample.redisCommands)
            .map(([c, n]) => `${c} ${n}`)
            .join(", ");
          log(
            `cluster ${wire} round ${round + 1}/${config.rounds} ${setup.key}: ${Math.round(sample.callsPerSec)} calls/s, ` +
              `${sample.nodeCpuUsPerCall.toFixed(1)} µs node CPU/call${setup.redis ? `; Redis ran ${redis || "nothing"}` : ""}`,
          );
        }
      } finally {
        for (const { agent } of byWire.values()) agent.destroy();
        await running.nginx?.stop();
        await Promise.all(running.nodes.map((n) => n.close()));
      }
    }
  }
  const out = {};
  for (const wire of CLUSTER_WIRES) {
    out[wire] = {};
    for (const setup of SETUPS.filter((s) => s.wires.includes(wire))) {
      const xs = samples[setup.key][wire];
      const calls = xs.reduce((a, s) => a + s.calls, 0);
      const commands = {};
      for (const s of xs) for (const [c, n] of Object.entries(s.redisCommands)) commands[c] = (commands[c] ?? 0) + n;
      const total = Object.values(commands).reduce((a, b) => a + b, 0);
      const seconds = xs.reduce((a, s) => a + s.seconds, 0);
      out[wire][setup.key] = {
        nodes: setup.nodes,
        redis: setup.redis,
        protocolVersion: xs[0].protocolVersion,
        callsPerSec: summarize(xs.map((s) => s.callsPerSec)),
        p50Ms: summarize(xs.map((s) => s.p50Ms)),
        p99Ms: summarize(xs.map((s) => s.p99Ms)),
        nodeCpuUsPerCall: summarize(xs.map((s) => s.nodeCpuUsPerCall)),
        nginxCpuUsPerCall: summarize(xs.map((s) => s.nginxCpuUsPerCall)),
        redisCpuUsPerCall: summarize(xs.map((s) => s.redisCpuUsPerCall)),
        // Over all rounds' load windows: commands per call, and which (heartbeats included).
        redisCommandsPerCall: setup.redis ? total / calls : undefined,
        redisCommands: setup.redis ? commands : undefined,
        redisCommandsPerSecond: setup.redis ? total / seconds : undefined,
      };
    }
    // The nodes' CPU per call against one node's (mcpkit's, or bare Node's for the bare
    // row), paired within each round.
    const cpu = (key) => samples[key][wire].map((x) => x.nodeCpuUsPerCall);
    out[wire].vsSingle = Object.fromEntries(
      SETUPS.filter((s) => s.nodes > 1 && s.wires.includes(wire)).map((s) => [
        s.key,
        ratioCI(cpu(s.key), cpu(s.against ?? "single")),
      ]),
    );
    if (wire !== "modern") continue;
    // Redis's share: three Redis-backed nodes and their redis-server against three in-memory
    // nodes, the same split of the same load, paired within each round.
    const withRedis = samples.cluster[wire].map((x) => x.nodeCpuUsPerCall + x.redisCpuUsPerCall);
    out[wire].redisShare = pairedRatio(withRedis, cpu("three"));
    // The proxy's added cost per call: nginx's CPU and what the node does more behind it.
    const proxied = samples.single[wire].map((x) => x.nodeCpuUsPerCall + x.nginxCpuUsPerCall);
    const direct = cpu("direct");
    const added = proxied.map((p, i) => p - (direct[i] ?? Number.NaN));
    out[wire].proxy = {
      addedUsPerCall: summarize(added),
      ratio: pairedRatio(proxied, direct),
    };
  }
  return out;
}
