// Streamable HTTP: calls/s with 32 keep-alive connections, latency, server CPU per call,
// on three wires (sessions, stateless 2025, stateless 2026-07-28).
import { HttpPeer, httpLatency, httpThroughput, newAgent } from "../lib/http-client.mjs";
import { startHttpServer } from "../lib/http-server.mjs";
import { cpuSeconds } from "../lib/proc.mjs";
import { summarize } from "../lib/stats.mjs";

async function httpRound(context, impl, mode) {
  const { config, server: path, serverEnv } = context;
  const server = await startHttpServer(path(`${impl.key}-http`), { mode, env: await serverEnv(impl) });
  const { connections, warmupSeconds, seconds, latencyCalls } = config.http;
  const agent = newAgent(connections);
  const modern = mode === "modern";
  try {
    const peers = Array.from({ length: connections }, () => new HttpPeer(server.port, agent));
    if (!modern) for (const peer of peers) await peer.initialize();
    await httpThroughput(peers, { modern, seconds: warmupSeconds });
    const cpu0 = cpuSeconds(server.pid);
    const load = await httpThroughput(peers, { modern, seconds });
    const cpu = cpuSeconds(server.pid) - cpu0;
    const latency = await httpLatency(peers[0], { modern, calls: latencyCalls });
    return {
      callsPerSec: load.calls / load.seconds,
      cpuUsPerCall: (cpu * 1e6) / load.calls,
      p50Ms: latency.p50,
      p99Ms: latency.p99,
      protocolVersion: modern ? "2026-07-28" : peers[0].version,
    };
  } finally {
    agent.destroy();
    await server.close();
  }
}

/** @param {{ config: object, impls: object[], modes: string[], server: Function, serverEnv: Function, log: Function }} context */
export async function httpSuite(context) {
  const { config, impls: all, modes, log } = context;
  const out = {};
  for (const mode of modes) {
    const impls = all.filter((i) => i.http.includes(mode));
    const samples = Object.fromEntries(impls.map((i) => [i.key, []]));
    for (let round = 0; round < config.rounds; round++) {
      for (const impl of impls) {
        const sample = await httpRound(context, impl, mode);
        samples[impl.key].push(sample);
        log(
          `http ${mode} round ${round + 1}/${config.rounds} ${impl.key}: ${Math.round(sample.callsPerSec)} calls/s, ${sample.cpuUsPerCall.toFixed(1)} µs CPU/call`,
        );
      }
    }
    out[mode] = {};
    for (const impl of impls) {
      const xs = samples[impl.key];
      out[mode][impl.key] = {
        protocolVersion: xs[0].protocolVersion,
        callsPerSec: summarize(xs.map((s) => s.callsPerSec)),
        p50Ms: summarize(xs.map((s) => s.p50Ms)),
        p99Ms: summarize(xs.map((s) => s.p99Ms)),
        cpuUsPerCall: summarize(xs.map((s) => s.cpuUsPerCall)),
      };
    }
  }
  return out;
}
