#!/usr/bin/env node
// `npm run bench` (not part of npm test): mcpkit against a bare no-framework Node baseline,
// the official SDK (v2.4 and v1.32), tmcp and mcp-lite, each serving one `echo` tool with
// the same schema. Implementations run alternately (A B C A B C …) so drift hits all; every
// figure is the median of the rounds with min–max. Writes bench/results/<date>.json and
// .md, and (full runs) the table in docs/performance.md. See bench/README.md for the knobs.
import { execFile, execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import { fileURLToPath } from "node:url";
import { killAll } from "./lib/children.mjs";
import { HttpPeer, httpLatency, httpThroughput, newAgent, openSessions } from "./lib/http-client.mjs";
import { startHttpServer } from "./lib/http-server.mjs";
import { cpuSeconds, rssBytes } from "./lib/proc.mjs";
import { redisUrl } from "./lib/redis.mjs";
import { renderMarkdown, updateDocs } from "./lib/report.mjs";
import { summarize } from "./lib/stats.mjs";
import { coldStart, StdioPeer, sequentialLatency, throughput } from "./lib/stdio-client.mjs";

const env = process.env;
const QUICK = env.BENCH_QUICK === "1";
const num = (name, full, quick) => Number(env[name] ?? (QUICK ? quick : full));
const list = (name) => (env[name] ? env[name].split(",").map((s) => s.trim()) : undefined);

const config = {
  quick: QUICK,
  rounds: num("BENCH_ROUNDS", 3, 1),
  stdio: {
    inFlight: 64,
    warmupSeconds: num("BENCH_STDIO_WARMUP_SECONDS", 1.5, 0.5),
    seconds: num("BENCH_STDIO_SECONDS", 3, 1),
    latencyCalls: num("BENCH_LATENCY_CALLS", 2000, 300),
    coldStarts: num("BENCH_COLD_STARTS", 3, 1),
  },
  http: {
    connections: 32,
    // The frameworks' HTTP paths need seconds of load before the JIT settles.
    warmupSeconds: num("BENCH_HTTP_WARMUP_SECONDS", 3, 1),
    seconds: num("BENCH_HTTP_SECONDS", 3, 1),
    latencyCalls: num("BENCH_LATENCY_CALLS", 1000, 200),
  },
  memory: {
    warmSessions: 20,
    sessions: (list("BENCH_SESSIONS") ?? (QUICK ? ["1000"] : ["1000", "10000"])).map(Number),
    concurrency: 4,
    nodeArgs: (process.env.BENCH_MEMORY_NODE_ARGS ?? "--max-semi-space-size=1").split(" ").filter(Boolean),
  },
  validation: {
    rounds: num("BENCH_VALIDATION_ROUNDS", 5, 2),
    calls: num("BENCH_VALIDATION_CALLS", 100_000, 20_000),
  },
};
const SUITES = list("BENCH_ONLY") ?? ["stdio", "http", "memory", "validation"];
const ONLY_IMPLS = list("BENCH_IMPLS");
const HTTP_MODES = list("BENCH_HTTP_MODES") ?? ["stateful", "stateless", "modern"];

const root = fileURLToPath(new URL("..", import.meta.url));
const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const version = (pkg) => JSON.parse(readFileSync(`${root}node_modules/${pkg}/package.json`, "utf8")).version;

/** Who is measured, and on which wires. bare is the baseline; official-v2 the second reference. */
const IMPLEMENTATIONS = [
  { key: "bare", label: "bare Node (baseline)", stdio: true, http: ["stateful", "stateless", "modern"] },
  { key: "mcpkit", label: `mcpkit ${version("mcpkit")}`, stdio: true, http: ["stateful", "stateless", "modern"] },
  {
    key: "official-v2",
    label: `official SDK v${version("@modelcontextprotocol/server")}`,
    stdio: true,
    http: ["stateful", "stateless", "modern"],
  },
  {
    key: "official-v1",
    label: `official SDK v${version("@modelcontextprotocol/sdk")}`,
    stdio: true,
    http: ["stateful", "stateless"],
  },
  { key: "tmcp", label: `tmcp ${version("tmcp")}`, stdio: true, http: ["stateful", "modern"] },
  { key: "mcp-lite", label: `mcp-lite ${version("mcp-lite")}`, stdio: false, http: ["stateful", "stateless"] },
  // One node with its sessions, events and bus in Redis (@mcpkit/redis): a session served
  // by the node that holds it should cost what it costs in memory (target ≥ 0.7× mcpkit).
  { key: "mcpkit-redis", label: "mcpkit + Redis stores", stdio: false, http: ["stateful"], redis: true },
].filter((impl) => !ONLY_IMPLS || ONLY_IMPLS.includes(impl.key));

const log = (line) => process.stderr.write(`${line}\n`);

/** The servers run mcpkit's compiled output: say so when it is missing or older than its source. */
function checkBuild() {
  const newest = (dir) => {
    let latest = 0;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
    }
    return latest;
  };
  const lib = `${root}packages/mcpkit`;
  if (!existsSync(`${lib}/dist/index.js`))
    throw new Error("packages/mcpkit/dist is missing: run `npm run build` first");
  if (newest(`${lib}/src`) > newest(`${lib}/dist`)) {
    log("warning: packages/mcpkit/src is newer than dist; run `npm run build` to measure the current source");
  }
}
const round1 = (x) => Math.round(x * 10) / 10;

for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(signal, () => {
    killAll();
    process.exit(130);
  });
}
process.on("exit", killAll);

// ---------------------------------------------------------------------------------------
// stdio: calls/s with 64 in flight, sequential latency, cold start, RSS and CPU after load.

async function stdioRound(impl) {
  const script = here(`servers/${impl.key}-stdio.mjs`);
  const peer = new StdioPeer(script);
  try {
    await peer.initialize();
    const { inFlight, warmupSeconds, seconds, latencyCalls } = config.stdio;
    await throughput(peer, { inFlight, seconds: warmupSeconds });
    const cpu0 = cpuSeconds(peer.pid);
    const load = await throughput(peer, { inFlight, seconds });
    const cpu = cpuSeconds(peer.pid) - cpu0;
    const rss = rssBytes(peer.pid);
    const latency = await sequentialLatency(peer, latencyCalls);
    return {
      callsPerSec: load.calls / load.seconds,
      cpuUsPerCall: (cpu * 1e6) / load.calls,
      rssMiB: rss / 2 ** 20,
      p50Ms: latency.p50,
      p99Ms: latency.p99,
    };
  } finally {
    await peer.close();
  }
}

async function stdioSuite() {
  const impls = IMPLEMENTATIONS.filter((i) => i.stdio);
  const samples = Object.fromEntries(impls.map((i) => [i.key, []]));
  const cold = Object.fromEntries(impls.map((i) => [i.key, []]));
  // mcpkit also starts with the echo schema as the raw JSON Schema the bare server publishes:
  // the zod variant's extra time is zod's import, which every zod-declared server pays.
  const coldJson = [];
  const mcpkitScript = here("servers/mcpkit-stdio.mjs");
  for (let round = 0; round < config.rounds; round++) {
    for (let n = 0; n < config.stdio.coldStarts; n++) {
      for (const impl of impls) {
        cold[impl.key].push(await coldStart(here(`servers/${impl.key}-stdio.mjs`)));
        if (impl.key === "mcpkit")
          coldJson.push(await coldStart(mcpkitScript, { env: { BENCH_MCPKIT_SCHEMA: "json" } }));
      }
    }
    for (const impl of impls) {
      const sample = await stdioRound(impl);
      samples[impl.key].push(sample);
      log(
        `stdio round ${round + 1}/${config.rounds} ${impl.key}: ${Math.round(sample.callsPerSec)} calls/s, p50 ${round1(sample.p50Ms * 1000)} µs`,
      );
    }
  }
  const out = {};
  for (const impl of impls) {
    const xs = samples[impl.key];
    out[impl.key] = {
      callsPerSec: summarize(xs.map((s) => s.callsPerSec)),
      p50Ms: summarize(xs.map((s) => s.p50Ms)),
      p99Ms: summarize(xs.map((s) => s.p99Ms)),
      coldStartMs: summarize(cold[impl.key]),
      ...(impl.key === "mcpkit" && coldJson.length > 0 && { coldStartJsonSchemaMs: summarize(coldJson) }),
      rssAfterLoadMiB: summarize(xs.map((s) => s.rssMiB)),
      cpuUsPerCall: summarize(xs.map((s) => s.cpuUsPerCall)),
    };
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// Streamable HTTP: calls/s with 32 keep-alive connections, latency, server CPU per call.

/** What a server's process needs in its environment (the Redis URL for the Redis row). */
const serverEnv = async (impl) => (impl.redis ? { BENCH_REDIS_URL: await redisUrl() } : {});

async function httpRound(impl, mode) {
  const server = await startHttpServer(here(`servers/${impl.key}-http.mjs`), { mode, env: await serverEnv(impl) });
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

async function httpSuite() {
  const out = {};
  for (const mode of HTTP_MODES) {
    const impls = IMPLEMENTATIONS.filter((i) => i.http.includes(mode));
    const samples = Object.fromEntries(impls.map((i) => [i.key, []]));
    for (let round = 0; round < config.rounds; round++) {
      for (const impl of impls) {
        const sample = await httpRound(impl, mode);
        samples[impl.key].push(sample);
        log(
          `http ${mode} round ${round + 1}/${config.rounds} ${impl.key}: ${Math.round(sample.callsPerSec)} calls/s, ${round1(sample.cpuUsPerCall)} µs CPU/call`,
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

// ---------------------------------------------------------------------------------------
// Memory per idle session: N initialized sessions against the server's own baseline.

// V8 sizes its young generation by the allocation rate: opening thousands of sessions
// grows it (up to tens of MiB) and it stays committed until the heap's memory reducer runs
// on an idle server. That capacity is not what a session keeps, so every server here runs
// with a fixed 1 MiB semi-space (BENCH_MEMORY_NODE_ARGS overrides; "" for Node's defaults).

async function memoryRound(impl) {
  const server = await startHttpServer(here(`servers/${impl.key}-http.mjs`), {
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

async function memorySuite() {
  const impls = IMPLEMENTATIONS.filter((i) => i.http.includes("stateful"));
  const samples = Object.fromEntries(impls.map((i) => [i.key, []]));
  for (let round = 0; round < config.rounds; round++) {
    for (const impl of impls) {
      const sample = await memoryRound(impl);
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

// ---------------------------------------------------------------------------------------
// Validation cost (in process, bench/validation.mjs).

function validationSuite() {
  log("validation: zod vs JSON Schema vs none, in process");
  const output = execFileSync(process.execPath, [here("validation.mjs")], {
    encoding: "utf8",
    env: {
      ...env,
      BENCH_VALIDATION_ROUNDS: String(config.validation.rounds),
      BENCH_VALIDATION_CALLS: String(config.validation.calls),
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  return JSON.parse(output.trim().split("\n").at(-1));
}

// ---------------------------------------------------------------------------------------

/**
 * How much parallel CPU the machine really gives: one busy loop alone, then two at once.
 * On a VM whose vCPUs share one physical core the pair gets about 1× (not 2×) the loop's
 * rate, and then the load client and the server share that one core.
 */
async function effectiveCores() {
  const spin = `const t0 = performance.now(); let n = 0; while (performance.now() - t0 < 500) n++; console.log(n);`;
  const run = (count) =>
    Promise.all(
      Array.from(
        { length: count },
        () =>
          new Promise((resolve, reject) =>
            execFile(process.execPath, ["-e", spin], (error, out) => (error ? reject(error) : resolve(Number(out)))),
          ),
      ),
    );
  const [alone] = await run(1);
  const pair = await run(2);
  return Math.round(((pair[0] + pair[1]) / alone) * 100) / 100;
}

const started = Date.now();
const machine = {
  cpu: os.cpus()[0]?.model ?? "unknown",
  cores: os.availableParallelism?.() ?? os.cpus().length,
  memoryGiB: Math.round(os.totalmem() / 2 ** 30),
  os: `${os.type()} ${os.release()}`,
  node: process.version,
  /** Two busy loops at once, in units of one alone (2 on two real cores). */
  effectiveCores: await effectiveCores(),
  /** 1-minute load average before and after: other work on the machine makes a run noisy. */
  loadAverage: { before: Math.round(os.loadavg()[0] * 100) / 100, after: undefined },
};
const versions = Object.fromEntries(
  [
    "mcpkit",
    "@modelcontextprotocol/server",
    "@modelcontextprotocol/node",
    "@modelcontextprotocol/sdk",
    "tmcp",
    "@tmcp/transport-stdio",
    "@tmcp/transport-http",
    "@tmcp/adapter-zod",
    "mcp-lite",
    "@hono/node-server",
    "zod",
  ].map((p) => [p, version(p)]),
);
checkBuild();
log(`bench: ${SUITES.join(", ")}; ${config.rounds} round(s)${QUICK ? " (quick)" : ""}; Node ${process.version}`);

const results = {};
try {
  if (SUITES.includes("stdio")) results.stdio = await stdioSuite();
  if (SUITES.includes("http")) results.http = await httpSuite();
  if (SUITES.includes("memory")) results.memory = await memorySuite();
  if (SUITES.includes("validation")) results.validation = validationSuite();
} finally {
  killAll();
}

machine.loadAverage.after = Math.round(os.loadavg()[0] * 100) / 100;
const date = new Date().toISOString().slice(0, 10);
const full = !QUICK && SUITES.length === 4 && !ONLY_IMPLS && HTTP_MODES.length === 3;
const suffix = full ? "" : QUICK ? "-quick" : "-partial";
const report = {
  date,
  durationSeconds: Math.round((Date.now() - started) / 1000),
  machine,
  versions,
  implementations: Object.fromEntries(IMPLEMENTATIONS.map((i) => [i.key, i.label])),
  config,
  results,
};
const markdown = renderMarkdown(report);
const base = here(`results/${date}${suffix}`);
writeFileSync(`${base}.json`, `${JSON.stringify(report, null, 2)}\n`);
writeFileSync(`${base}.md`, markdown);
if (full && env.BENCH_DOCS !== "0") updateDocs(`${root}docs/performance.md`, markdown);
process.stdout.write(markdown);
log(
  `\nwrote ${base}.json and .md${full && env.BENCH_DOCS !== "0" ? " and docs/performance.md" : ""} in ${report.durationSeconds} s`,
);
