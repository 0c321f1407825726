#!/usr/bin/env node
// `npm run bench` (not part of npm test): mcpkit against a bare no-framework Node baseline,
// the official SDK (v2.4 and v1.32), tmcp and mcp-lite, each serving one `echo` tool with
// the same schema; a cluster behind nginx, a Redis-and-HTTP workload, CLI start-up and the
// packages' footprint. Implementations run alternately (A B C A B C …) so drift hits all;
// every figure is the median of the rounds with min–max. Writes bench/results/<date>.json
// and .md, and (full runs) the tables in docs/performance.md. Suites live in suites/; see
// bench/README.md for the knobs. `npm run bench -- cluster workload` runs only those suites.
import { execFile } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import { fileURLToPath } from "node:url";
import { killAll } from "./lib/children.mjs";
import { redisUrl } from "./lib/redis.mjs";
import { renderMarkdown, updateDocs } from "./lib/report.mjs";
import { clusterSuite } from "./suites/cluster.mjs";
import { footprintSuite } from "./suites/footprint.mjs";
import { gatewaySuite } from "./suites/gateway.mjs";
import { httpSuite } from "./suites/http.mjs";
import { memorySuite } from "./suites/memory.mjs";
import { startupSuite } from "./suites/startup.mjs";
import { STDIO_LIMIT, stdioSuite } from "./suites/stdio.mjs";
import { validationSuite } from "./suites/validation.mjs";
import { workloadSuite } from "./suites/workload.mjs";

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
    // Rounds of short windows, every server in turn (rotating order), for a confidence interval.
    windowRounds: num("BENCH_STDIO_WINDOWS", 12, 3),
    settleSeconds: 0.25,
    seconds: num("BENCH_STDIO_SECONDS", 1.5, 0.5),
    latencyCalls: num("BENCH_LATENCY_CALLS", 2000, 300),
    coldStarts: num("BENCH_COLD_STARTS", 5, 1),
    allocCalls: num("BENCH_ALLOC_CALLS", 100_000, 20_000),
  },
  http: {
    connections: num("BENCH_HTTP_CONNECTIONS", 32, 32),
    // The frameworks' HTTP paths need seconds of load before the JIT settles.
    warmupSeconds: num("BENCH_HTTP_WARMUP_SECONDS", 3, 1),
    // Rounds of short windows, every server in turn (rotating order): paired ratios with a 95% interval.
    windowRounds: num("BENCH_HTTP_WINDOWS", 12, 3),
    settleSeconds: 0.25,
    seconds: num("BENCH_HTTP_SECONDS", 1.5, 0.5),
    latencyCalls: num("BENCH_LATENCY_CALLS", 1000, 200),
  },
  memory: {
    warmSessions: 20,
    concurrency: 4,
    // Two methods side by side (suites/memory.mjs); the targets use "default" at 1,000.
    methods: [
      {
        key: "default",
        label: "Node's default flags",
        nodeArgs: (env.BENCH_MEMORY_DEFAULT_NODE_ARGS ?? "").split(" ").filter(Boolean),
        sessions: [1000],
      },
      {
        key: "small-young",
        label: "a fixed 1 MiB semi-space",
        nodeArgs: (env.BENCH_MEMORY_NODE_ARGS ?? "--max-semi-space-size=1").split(" ").filter(Boolean),
        sessions: (list("BENCH_SESSIONS") ?? (QUICK ? ["1000"] : ["1000", "10000"])).map(Number),
      },
    ],
  },
  validation: {
    rounds: num("BENCH_VALIDATION_ROUNDS", 5, 2),
    calls: num("BENCH_VALIDATION_CALLS", 100_000, 20_000),
  },
  cluster: {
    connections: 32,
    // Per wire, before any is measured: three nodes share the calls, and each needs seconds of them.
    warmupSeconds: num("BENCH_CLUSTER_WARMUP_SECONDS", 6, 2),
    settleSeconds: 1,
    seconds: num("BENCH_CLUSTER_SECONDS", 5, 1),
    latencyCalls: num("BENCH_LATENCY_CALLS", 1000, 200),
    nodeArgs: (process.env.BENCH_CLUSTER_NODE_ARGS ?? "").split(" ").filter(Boolean),
  },
  gateway: {
    connections: 32,
    warmupSeconds: num("BENCH_GATEWAY_WARMUP_SECONDS", 3, 1),
    seconds: num("BENCH_GATEWAY_SECONDS", 3, 1),
    latencyCalls: num("BENCH_LATENCY_CALLS", 1000, 200),
    nodeArgs: (process.env.BENCH_GATEWAY_NODE_ARGS ?? "").split(" ").filter(Boolean),
  },
  workload: {
    clients: 50,
    warmupSeconds: num("BENCH_WORKLOAD_WARMUP_SECONDS", 3, 1),
    seconds: num("BENCH_WORKLOAD_SECONDS", 10, 2),
  },
  startup: { runs: num("BENCH_STARTUP_RUNS", 20, 3) },
  footprint: { installs: num("BENCH_INSTALLS", 3, 1) },
};
const ALL_SUITES = ["stdio", "http", "memory", "validation", "cluster", "gateway", "workload", "startup", "footprint"];
const argSuites = process.argv.slice(2).filter((a) => !a.startsWith("-"));
const SUITES = (argSuites.length > 0 ? argSuites : undefined) ?? list("BENCH_ONLY") ?? ALL_SUITES;
for (const suite of SUITES) {
  if (!ALL_SUITES.includes(suite)) throw new Error(`unknown suite "${suite}"; choose from ${ALL_SUITES.join(", ")}`);
}
const ONLY_IMPLS = list("BENCH_IMPLS");
const HTTP_MODES = list("BENCH_HTTP_MODES") ?? ["stateful", "stateless", "modern"];

const root = fileURLToPath(new URL("..", import.meta.url));
const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const version = (pkg) => JSON.parse(readFileSync(`${root}node_modules/${pkg}/package.json`, "utf8")).version;

/** Who is measured, and on which wires. bare is the baseline; official-v2 the second reference. */
const IMPLEMENTATIONS = [
  { key: "bare", label: "bare Node (baseline)", stdio: true, http: ["stateful", "stateless", "modern"] },
  // The HTTP limit: node:http, parse, a switch, stringify, nothing else (no checks at all).
  {
    key: "bare-min",
    label: "bare Node, no validation (HTTP limit)",
    stdio: false,
    http: ["stateful", "stateless", "modern"],
    workload: false,
  },
  // The stdio limit: bare Node writing the answers of one event-loop turn in one write.
  { key: STDIO_LIMIT, label: "bare Node, coalesced writes (stdio limit)", stdio: true, http: [] },
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
  // mcpkit with OpenTelemetry and a middleware installed but idle (no SDK registered):
  // within 10% of mcpkit without them. HTTP throughput only.
  {
    key: "mcpkit-observed",
    label: "mcpkit + OTel and middleware, idle",
    stdio: false,
    http: ["stateful", "stateless", "modern"],
    throughputOnly: true,
  },
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

for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(signal, () => {
    killAll();
    process.exit(130);
  });
}
process.on("exit", killAll);

// ---------------------------------------------------------------------------------------

/** What a server's process needs in its environment (the Redis URL for the Redis row). */
const serverEnv = async (impl) => (impl.redis ? { BENCH_REDIS_URL: await redisUrl() } : {});
const context = { config, log, server: (name) => here(`servers/${name}.mjs`), serverEnv };

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

const RUN = {
  stdio: () => stdioSuite({ ...context, impls: IMPLEMENTATIONS.filter((i) => i.stdio) }),
  http: () => httpSuite({ ...context, impls: IMPLEMENTATIONS, modes: HTTP_MODES }),
  memory: () => memorySuite({ ...context, impls: IMPLEMENTATIONS }),
  validation: () => validationSuite(context),
  cluster: () => clusterSuite(context),
  gateway: () => gatewaySuite(context),
  workload: () => workloadSuite({ ...context, impls: IMPLEMENTATIONS }),
  startup: () => startupSuite(context),
  footprint: () => footprintSuite(context),
};
const results = {};
/** Suites that failed: the others' figures are still written (a run takes twenty minutes). */
const failures = {};
try {
  for (const suite of ALL_SUITES) {
    if (!SUITES.includes(suite)) continue;
    try {
      results[suite] = await RUN[suite]();
    } catch (error) {
      failures[suite] = error instanceof Error ? error.message : String(error);
      log(`bench: the ${suite} suite failed, the others go on: ${failures[suite]}`);
    }
  }
} finally {
  killAll();
}
const failed = Object.keys(failures);

machine.loadAverage.after = Math.round(os.loadavg()[0] * 100) / 100;
const date = new Date().toISOString().slice(0, 10);
const full =
  !QUICK && SUITES.length === ALL_SUITES.length && !ONLY_IMPLS && HTTP_MODES.length === 3 && failed.length === 0;
const suffix = full ? "" : QUICK ? "-quick" : "-partial";
const report = {
  date,
  durationSeconds: Math.round((Date.now() - started) / 1000),
  machine,
  versions,
  implementations: Object.fromEntries(IMPLEMENTATIONS.map((i) => [i.key, i.label])),
  config,
  results,
  ...(failed.length > 0 && { failures }),
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
if (failed.length > 0) {
  log(`bench: ${failed.join(", ")} failed (above); written as a partial run`);
  process.exitCode = 1;
}
