// The workload scenario, in the style of published MCP server benchmarks (TM Dev Lab,
// 2025–2026: k6 with 50 virtual users against tools backed by Redis and an HTTP API):
// 50 clients, each with its own session (2025-era handshake) and one tools/call in flight,
// cycle through three tools that read and write a real redis-server and call a local
// HTTP API (bench/servers/lib/workload.mjs), for every implementation in turn. Reported:
// calls/s, latency percentiles under that load, and per call the server's CPU and the
// Redis commands it caused (the same for every implementation: the work is identical).
import { createRequire } from "node:module";
import { ensureSystemTools } from "../../scripts/system-tools.mjs";
import { HttpPeer, newAgent } from "../lib/http-client.mjs";
import { startHttpServer } from "../lib/http-server.mjs";
import { cpuSeconds } from "../lib/proc.mjs";
import { commandDelta, commandStats, redisServer } from "../lib/redis.mjs";
import { percentile, summarize } from "../lib/stats.mjs";
import { PREFIX } from "../servers/lib/workload.mjs";

export const USERS = 1000;
export const PRODUCTS = 100;

/** Stores the users the get_user tool reads, and empties the carts of earlier runs. */
async function seed(url) {
  const { Redis } = createRequire(new URL("../../packages/redis/package.json", import.meta.url))("ioredis");
  const redis = new Redis(url);
  try {
    const batch = redis.pipeline();
    for (let i = 0; i < USERS; i++) {
      const user = {
        id: `u${i}`,
        name: `User ${i}`,
        email: `user${i}@example.test`,
        tier: i % 3 === 0 ? "pro" : "free",
      };
      batch.set(`${PREFIX}user:u${i}`, JSON.stringify(user));
      batch.del(`${PREFIX}cart:u${i}`);
    }
    await batch.exec();
  } finally {
    redis.disconnect();
  }
}

/** Client `c`'s n-th call: the three tools in turn, over the users and products. */
function nextCall(c, n) {
  const user = `u${(c * 37 + n) % USERS}`;
  const product = `p${(c * 11 + n * 7) % PRODUCTS}`;
  switch ((c + n) % 3) {
    case 0:
      return ["get_user", { user_id: user }];
    case 1:
      return ["add_to_cart", { user_id: user, product_id: product, quantity: 1 }];
    default:
      return ["get_product", { product_id: product }];
  }
}

/** Every client keeps one call in flight for `seconds`: calls, and each call's latency (ms). */
async function load(peers, seconds, latencies) {
  const started = performance.now();
  const deadline = started + seconds * 1000;
  const counts = await Promise.all(
    peers.map(async (peer, c) => {
      let n = 0;
      while (performance.now() < deadline) {
        const [name, args] = nextCall(c, n);
        const t0 = performance.now();
        await new Promise((resolve, reject) =>
          peer.callTool(name, args, (error) => (error ? reject(error) : resolve())),
        );
        latencies?.push(performance.now() - t0);
        n++;
      }
      return n;
    }),
  );
  return { calls: counts.reduce((a, b) => a + b, 0), seconds: (performance.now() - started) / 1000 };
}

async function workloadRound({ config, server: path }, impl, env, apiPid, redis) {
  const { clients, warmupSeconds, seconds } = config.workload;
  const server = await startHttpServer(path(`${impl.key}-http`), { mode: "stateful", env });
  const agent = newAgent(clients);
  try {
    const peers = Array.from({ length: clients }, () => new HttpPeer(server.port, agent));
    for (const peer of peers) await peer.initialize();
    await load(peers, warmupSeconds);
    const stats0 = await commandStats(redis.port);
    const cpu0 = [server.pid, apiPid, redis.pid].map(cpuSeconds);
    const latencies = [];
    const window = await load(peers, seconds, latencies);
    const cpu1 = [server.pid, apiPid, redis.pid].map(cpuSeconds);
    const commands = commandDelta(stats0, await commandStats(redis.port));
    const sorted = Float64Array.from(latencies).sort();
    const perCall = (i) => ((cpu1[i] - cpu0[i]) * 1e6) / window.calls;
    return {
      protocolVersion: peers[0].version,
      callsPerSec: window.calls / window.seconds,
      p50Ms: percentile(sorted, 50),
      p90Ms: percentile(sorted, 90),
      p99Ms: percentile(sorted, 99),
      serverCpuUsPerCall: perCall(0),
      apiCpuUsPerCall: perCall(1),
      redisCpuUsPerCall: perCall(2),
      redisCommandsPerCall: Object.values(commands).reduce((a, b) => a + b, 0) / window.calls,
    };
  } finally {
    agent.destroy();
    await server.close();
  }
}

/** @param {{ config: object, impls: object[], server: (name: string) => string, log: (line: string) => void }} context */
export async function workloadSuite(context) {
  const { config, log } = context;
  if (!ensureSystemTools((line) => log(line.trimEnd()))) throw new Error("the workload scenario needs redis-server");
  const impls = context.impls.filter(
    (i) => i.http.includes("stateful") && !i.redis && !i.throughputOnly && i.workload !== false,
  );
  const redis = await redisServer();
  await seed(redis.url);
  const api = await startHttpServer(context.server("product-api"), { mode: "stateful" });
  const env = { BENCH_WORKLOAD: "1", BENCH_REDIS_URL: redis.url, BENCH_API_URL: `http://127.0.0.1:${api.port}` };
  const samples = Object.fromEntries(impls.map((i) => [i.key, []]));
  try {
    for (let round = 0; round < config.rounds; round++) {
      for (let i = 0; i < impls.length; i++) {
        const impl = impls[(i + round) % impls.length];
        const sample = await workloadRound(context, impl, env, api.pid, redis);
        samples[impl.key].push(sample);
        log(
          `workload round ${round + 1}/${config.rounds} ${impl.key}: ${Math.round(sample.callsPerSec)} calls/s, ` +
            `p50 ${sample.p50Ms.toFixed(2)} ms, p99 ${sample.p99Ms.toFixed(2)} ms, ${sample.serverCpuUsPerCall.toFixed(0)} µs CPU/call, ` +
            `${sample.redisCommandsPerCall.toFixed(2)} Redis commands/call`,
        );
      }
    }
  } finally {
    await api.close();
  }
  const out = {};
  for (const impl of impls) {
    const xs = samples[impl.key];
    const s = (field) => summarize(xs.map((x) => x[field]));
    out[impl.key] = {
      protocolVersion: xs[0].protocolVersion,
      callsPerSec: s("callsPerSec"),
      p50Ms: s("p50Ms"),
      p90Ms: s("p90Ms"),
      p99Ms: s("p99Ms"),
      serverCpuUsPerCall: s("serverCpuUsPerCall"),
      apiCpuUsPerCall: s("apiCpuUsPerCall"),
      redisCpuUsPerCall: s("redisCpuUsPerCall"),
      redisCommandsPerCall: s("redisCommandsPerCall"),
    };
  }
  return out;
}
