// Memory per idle session: N initialized sessions against the server's own baseline, by two
// methods side by side (config.memory.methods):
//
// - "default": Node's default flags, the process as it runs in production. V8 sizes its
//   young generation by the allocation rate: opening sessions grows it (up to tens of MiB)
//   and it stays committed until the heap's memory reducer runs on an idle server, so the
//   growth of RSS counts that too, which depends on what each request allocates.
// - "small-young": a fixed 1 MiB semi-space (--max-semi-space-size=1), so RSS counts what
//   the sessions keep rather than the young generation their opening grew.
//
// The targets are judged on "default" at 1,000 sessions (the issue's method); the other is
// alongside, with the V8 heap's growth (what the sessions keep alive) for both.
import { newAgent, openSessions } from "../lib/http-client.mjs";
import { startHttpServer } from "../lib/http-server.mjs";
import { rssBytes } from "../lib/proc.mjs";
import { summarize } from "../lib/stats.mjs";

async function memoryRound({ config, server: path, serverEnv }, impl, method) {
  const server = await startHttpServer(path(`${impl.key}-http`), {
    mode: "stateful",
    env: await serverEnv(impl),
    nodeArgs: method.nodeArgs,
  });
  const { warmSessions, concurrency } = config.memory;
  const agent = newAgent(concurrency);
  try {
    // A few sessions first, so lazily loaded code and JIT state are in the baseline; they
    // count towards the N held (mcpkit, by default, holds at most 10,000).
    let open = await openSessions(server.port, agent, warmSessions, concurrency);
    const base = await server.memory();
    const baseRss = rssBytes(server.pid);
    const out = {};
    for (const target of method.sessions) {
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
  const { methods } = config.memory;
  const samples = Object.fromEntries(impls.map((i) => [i.key, Object.fromEntries(methods.map((m) => [m.key, []]))]));
  const round1 = (x) => Math.round(x * 10) / 10;
  for (let round = 0; round < config.rounds; round++) {
    for (const method of methods) {
      for (let i = 0; i < impls.length; i++) {
        const impl = impls[(i + round) % impls.length];
        const sample = await memoryRound(context, impl, method);
        samples[impl.key][method.key].push(sample);
        log(
          `memory (${method.key}) round ${round + 1}/${config.rounds} ${impl.key}: ${Object.entries(sample)
            .map(([n, m]) => `${n}: ${round1(m.heapKiB)} KiB heap, ${round1(m.rssKiB)} KiB RSS`)
            .join("; ")}`,
        );
      }
    }
  }
  const out = {};
  for (const impl of impls) {
    out[impl.key] = {};
    for (const method of methods) {
      const xs = samples[impl.key][method.key];
      out[impl.key][method.key] = {};
      for (const n of method.sessions) {
        out[impl.key][method.key][n] = {
          heapKiB: summarize(xs.map((s) => s[n].heapKiB)),
          rssKiB: summarize(xs.map((s) => s[n].rssKiB)),
        };
      }
    }
  }
  return out;
}
