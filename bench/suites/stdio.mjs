// stdio: calls/s and server CPU per call with 64 calls in flight, sequential latency, cold
// start, RSS after load, and (in a process of its own) what one call allocates.
//
// The throughput figure is built to resist a noisy machine: every server is started and
// warmed up first, then each round gives each of them one short window, in an order that
// rotates from round to round, so drift and neighbours' load hit all of them alike. Many
// short rounds give a mean with a 95% confidence interval, and ratios between two servers
// are taken within each round (paired) before they are averaged.
import { pathToFileURL } from "node:url";
import { cpuSeconds, rssBytes } from "../lib/proc.mjs";
import { meanCI, ratioCI, summarize } from "../lib/stats.mjs";
import { coldStart, StdioPeer, sequentialLatency, throughput } from "../lib/stdio-client.mjs";

/** The stdio limit mcpkit is judged against: bare Node writing one turn's answers at once. */
export const STDIO_LIMIT = "bare-coalesce";

/** `order` rotated by `n`: round n starts with the n-th implementation. */
const rotate = (items, n) => items.map((_, i) => items[(i + n) % items.length]);

/** One window of load on a warm server: calls/s and its CPU µs per call. */
async function window(peer, { inFlight, settleSeconds, seconds }) {
  // A moment of load first, so the window starts with the pipe full and the server awake.
  await throughput(peer, { inFlight, seconds: settleSeconds });
  const cpu0 = cpuSeconds(peer.pid);
  const load = await throughput(peer, { inFlight, seconds });
  const cpu = cpuSeconds(peer.pid) - cpu0;
  return { callsPerSec: load.calls / load.seconds, cpuUsPerCall: (cpu * 1e6) / load.calls };
}

/** Heap bytes allocated per call, in a process of its own with the allocation probe preloaded. */
async function allocations(script, { inFlight, warmupSeconds, calls }) {
  const probe = pathToFileURL(new URL("../lib/alloc-probe.mjs", import.meta.url).pathname).href;
  const peer = new StdioPeer(script, { nodeArgs: [`--import=${probe}`] });
  try {
    await peer.initialize();
    await throughput(peer, { inFlight, seconds: warmupSeconds });
    const from = peer.stderr.length;
    peer.child.kill("SIGUSR2");
    // The probe starts counting in its signal handler: wait until it has run (an echo call after it).
    await throughput(peer, { inFlight: 1, calls: 1 });
    const load = await throughput(peer, { inFlight, calls });
    peer.child.kill("SIGUSR2");
    const alloc = await peer.stderrJson("alloc", from);
    return {
      bytesPerCall: alloc.bytes / load.calls,
      gcUsPerCall: (alloc.gcMs * 1000) / load.calls,
      scavengesPer1000Calls: (alloc.scavenges * 1000) / load.calls,
      calls: load.calls,
    };
  } finally {
    await peer.close();
  }
}

/**
 * @param {{ config: object, impls: { key: string }[], server: (name: string) => string, log: (line: string) => void }} context
 */
export async function stdioSuite({ config, impls, server, log }) {
  const c = config.stdio;
  const keys = impls.map((i) => i.key);
  const round1 = (x) => Math.round(x * 10) / 10;

  // Cold starts first, while no other server is running. mcpkit also starts with the echo
  // schema as the raw JSON Schema the bare server publishes: the zod variant's extra time
  // is zod's import, which every zod-declared server pays.
  const cold = Object.fromEntries(keys.map((k) => [k, []]));
  const coldJson = [];
  for (let round = 0; round < config.rounds; round++) {
    for (let n = 0; n < c.coldStarts; n++) {
      for (const key of rotate(keys, round + n)) {
        cold[key].push(await coldStart(server(`${key}-stdio`)));
        if (key === "mcpkit")
          coldJson.push(await coldStart(server(`${key}-stdio`), { env: { BENCH_MCPKIT_SCHEMA: "json" } }));
      }
    }
  }
  log(`stdio cold start: ${keys.map((k) => `${k} ${Math.round(summarize(cold[k]).median)} ms`).join(", ")}`);

  // Every server started and warmed up, then rounds of short windows in rotating order.
  const peers = new Map();
  const windows = Object.fromEntries(keys.map((k) => [k, []]));
  const latency = Object.fromEntries(keys.map((k) => [k, []]));
  const rss = {};
  try {
    for (const key of keys) {
      const peer = new StdioPeer(server(`${key}-stdio`));
      peers.set(key, peer);
      await peer.initialize();
      await throughput(peer, { inFlight: c.inFlight, seconds: c.warmupSeconds });
    }
    for (let round = 0; round < c.windowRounds; round++) {
      const line = [];
      for (const key of rotate(keys, round)) {
        const sample = await window(peers.get(key), c);
        windows[key].push(sample);
        line.push(`${key} ${Math.round(sample.callsPerSec)}/s ${round1(sample.cpuUsPerCall)} µs`);
      }
      log(`stdio window round ${round + 1}/${c.windowRounds}: ${line.join(", ")}`);
    }
    for (const key of keys) rss[key] = rssBytes(peers.get(key).pid) / 2 ** 20;
    for (let round = 0; round < config.rounds; round++) {
      for (const key of rotate(keys, round)) latency[key].push(await sequentialLatency(peers.get(key), c.latencyCalls));
    }
  } finally {
    await Promise.all([...peers.values()].map((peer) => peer.close()));
  }

  const alloc = {};
  for (const key of keys) {
    alloc[key] = await allocations(server(`${key}-stdio`), {
      inFlight: c.inFlight,
      warmupSeconds: c.warmupSeconds,
      calls: c.allocCalls,
    });
    log(`stdio allocations ${key}: ${Math.round(alloc[key].bytesPerCall)} B/call`);
  }

  const limit = windows[STDIO_LIMIT];
  const out = {};
  for (const key of keys) {
    const xs = windows[key];
    const calls = xs.map((s) => s.callsPerSec);
    const cpu = xs.map((s) => s.cpuUsPerCall);
    out[key] = {
      callsPerSec: summarize(calls),
      callsPerSecCI: meanCI(calls),
      cpuUsPerCall: summarize(cpu),
      cpuUsPerCallCI: meanCI(cpu),
      ...(limit && {
        vsLimit: {
          callsPerSec: ratioCI(
            calls,
            limit.map((s) => s.callsPerSec),
          ),
          cpuUsPerCall: ratioCI(
            cpu,
            limit.map((s) => s.cpuUsPerCall),
          ),
        },
      }),
      p50Ms: summarize(latency[key].map((l) => l.p50)),
      p99Ms: summarize(latency[key].map((l) => l.p99)),
      coldStartMs: summarize(cold[key]),
      ...(key === "mcpkit" && coldJson.length > 0 && { coldStartJsonSchemaMs: summarize(coldJson) }),
      rssAfterLoadMiB: summarize([rss[key]]),
      alloc: alloc[key],
    };
  }
  return out;
}
