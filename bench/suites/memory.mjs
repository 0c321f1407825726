// Memory per idle session: N initialized sessions against the server's own baseline.
//
// V8 sizes its young generation by the allocation rate: opening thousands of sessions
// grows it (up to tens of MiB) and it stays committed until the heap's memory reducer runs
// on an idle server. That capacity is not what a session keeps, so every server here runs
// with a fixed 1 MiB semi-space (BENCH_MEMORY_NODE_ARGS overrides; "" for Node's defaults).
import { newAgent, openSessions } from "../lib/http-client.mjs";
import { startHttpServer } from "../lib/http-server.mjs";
import { rssBytes } from "../lib/proc.mjs";
import { summarize } from "../lib/stats.mjs";

async function memoryRound({ config, server: path, serverEnv }, impl) {
  const server = await startHttpServer(path(`${impl.key}-http`), {
    mode: "stateful",
    env: await serverEnv(impl),
    nodeArgs: config.memory.nodeArgs,
  });
  const agent = newAgent(config.memory.concurrency);
  const { warmSessions, sessions, concurrency } = config.memory;
  try {
    // A few sessions first, so lazily loaded code and JIT state are in the baseline; they
    // count towards the N held (mcpkit, by default, holds at most 10,000).
    let open = await openSessions(server.port, agent, warmSessions, concurrency);
    const base = await server.memory();
    const baseRss = rssBytes(server.pid);
    const out = {};
    for (const target of sessions) {
      open += await openSessions(server.port, agent, target - open, concurrency);
      const mem = await server.memory();
      const n = open - warmSessions;
      out[target] = {
        heapKiB: (mem.heapUsed + mem.external - base.heapUsed - base.external) / n / 1024,
        rssKiB: (rssBytes(server.pid) - baseRss) / n / 1024,
      };
    }
    return out;
  } finally {
    agent.destroy();
    await server.close();
  }
}

/** @param {{ config: object, impls: object[], server: Function, serverEnv: Function, log: Function }} context */
export async function memorySuite(context) {
  const { config, log } = context;
  const impls = context.impls.filter((i) => i.http.includes("stateful") && !i.throughputOnly);
  const samples = Object.fromEntries(impls.map((i) => [i.key, []]));
  const round1 = (x) => Math.round(x * 10) / 10;
  for (let round = 0; round < config.rounds; round++) {
    for (const impl of impls) {
      const sample = await memoryRound(context, impl);
      samples[impl.key].push(sample);
      log(
        `memory round ${round + 1}/${config.rounds} ${impl.key}: ${Object.entries(sample)
          .map(([n, m]) => `${n}: ${round1(m.heapKiB)} KiB heap, ${round1(m.rssKiB)} KiB RSS`)
          .join("; ")}`,
      );
    }
  }
  const out = {};
  for (const impl of impls) {
    out[impl.key] = {};
    for (const n of config.memory.sessions) {
      out[impl.key][n] = {
        heapKiB: summarize(samples[impl.key].map((s) => s[n].heapKiB)),
        rssKiB: summarize(samples[impl.key].map((s) => s[n].rssKiB)),
      };
    }
  }
  return out;
}
