// Streamable HTTP on three wires (sessions, stateless 2025, stateless 2026-07-28): calls/s
// with 32 keep-alive connections, the server's CPU per call, latency of sequential calls.
//
// Built like the stdio suite to resist a noisy machine: on each wire every server is
// started and warmed up first, then each round gives each of them one short window, in an
// order that rotates from round to round, and ratios between two servers are taken within
// each round (paired): the median ratio over the rounds, with its 95% interval, against
// both baselines: `bare` (a bare server that checks arguments and headers as frameworks
// do) and `bare-min` (parse, a switch, stringify and nothing else: the physical limit).
import { HttpPeer, httpLatency, httpThroughput, newAgent } from "../lib/http-client.mjs";
import { startHttpServer } from "../lib/http-server.mjs";
import { cpuSeconds } from "../lib/proc.mjs";
import { meanCI, pairedRatio, summarize } from "../lib/stats.mjs";

/** The baselines every HTTP figure is set against: with validation, and without (the limit). */
export const HTTP_BASELINES = ["bare", "bare-min"];

/** `items` rotated by `n`: round n starts with the n-th. */
const rotate = (items, n) => items.map((_, i) => items[(i + n) % items.length]);

/** A started server with its clients (each with its own session on the 2025 wires). */
async function start(context, impl, mode) {
  const { config, server: path, serverEnv } = context;
  const server = await startHttpServer(path(`${impl.key}-http`), { mode, env: await serverEnv(impl) });
  const agent = newAgent(config.http.connections);
  const peers = Array.from({ length: config.http.connections }, () => new HttpPeer(server.port, agent));
  try {
    if (mode !== "modern") for (const peer of peers) await peer.initialize();
  } catch (error) {
    agent.destroy();
    await server.close();
    throw error;
  }
  return { server, agent, peers };
}

/** One window of load on a warm server: calls/s and its CPU µs per call. */
async function window({ server, peers }, modern, { settleSeconds, seconds }) {
  // A moment of load first, so the window starts with every connection busy.
  await httpThroughput(peers, { modern, seconds: settleSeconds });
  const cpu0 = cpuSeconds(server.pid);
  const load = await httpThroughput(peers, { modern, seconds });
  const cpu = cpuSeconds(server.pid) - cpu0;
  return { callsPerSec: load.calls / load.seconds, cpuUsPerCall: (cpu * 1e6) / load.calls };
}

async function wire(context, impls, mode) {
  const { config, log } = context;
  const c = config.http;
  const modern = mode === "modern";
  const keys = impls.map((i) => i.key);
  const running = new Map();
  const windows = Object.fromEntries(keys.map((k) => [k, []]));
  const latency = {};
  const versions = {};
  const round1 = (x) => Math.round(x * 10) / 10;
  try {
    for (const impl of impls) {
      const started = await start(context, impl, mode);
      running.set(impl.key, started);
      versions[impl.key] = modern ? "2026-07-28" : started.peers[0].version;
      await httpThroughput(started.peers, { modern, seconds: c.warmupSeconds });
    }
    for (let round = 0; round < c.windowRounds; round++) {
      const line = [];
      for (const key of rotate(keys, round)) {
        const sample = await window(running.get(key), modern, c);
        windows[key].push(sample);
        line.push(`${key} ${Math.round(sample.callsPerSec)}/s ${round1(sample.cpuUsPerCall)} µs`);
      }
      log(`http ${mode} window round ${round + 1}/${c.windowRounds}: ${line.join(", ")}`);
    }
    for (const key of keys)
      latency[key] = await httpLatency(running.get(key).peers[0], { modern, calls: c.latencyCalls });
  } finally {
    for (const { agent, server } of running.values()) {
      agent.destroy();
      await server.close();
    }
  }
  const out = {};
  for (const key of keys) {
    const calls = windows[key].map((s) => s.callsPerSec);
    const cpu = windows[key].map((s) => s.cpuUsPerCall);
    const vs = {};
    for (const base of [...HTTP_BASELINES, "mcpkit"]) {
      const of = windows[base];
      if (!of || base === key) continue;
      vs[base] = {
        callsPerSec: pairedRatio(
          calls,
          of.map((s) => s.callsPerSec),
        ),
        cpuUsPerCall: pairedRatio(
          cpu,
          of.map((s) => s.cpuUsPerCall),
        ),
      };
    }
    out[key] = {
      protocolVersion: versions[key],
      callsPerSec: summarize(calls),
      callsPerSecCI: meanCI(calls),
      cpuUsPerCall: summarize(cpu),
      cpuUsPerCallCI: meanCI(cpu),
      vs,
      p50Ms: summarize([latency[key].p50]),
      p99Ms: summarize([latency[key].p99]),
    };
  }
  return out;
}

/** @param {{ config: object, impls: object[], modes: string[], server: Function, serverEnv: Function, log: Function }} context */
export async function httpSuite(context) {
  const out = {};
  for (const mode of context.modes) {
    const impls = context.impls.filter((i) => i.http.includes(mode));
    out[mode] = await wire(context, impls, mode);
  }
  return out;
}
