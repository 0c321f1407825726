#!/usr/bin/env node
// Profiles one benchmark server under the benchmark's own load: runs it with --cpu-prof,
// drives it with the same client as bench/run.mjs, then prints where its CPU went (self
// time by function, inclusive time by function, self time by file or package).
//
//   node bench/profile.mjs <server>[,<server>…] <scenario> [seconds]
//     server:   bare | bare-coalesce | mcpkit | official-v2 | official-v1 | tmcp | mcp-lite;
//               two or more (e.g. mcpkit,bare-coalesce) are profiled one after the other and
//               compared: CPU µs per call by file, package or native function, side by side
//     scenario: stdio | stateful | stateless | modern | cold (startup to the first tools/list)
//               | sessions: no CPU profile; heap snapshots before and after opening [seconds
//                 is then the number of] idle sessions, and what each session keeps alive
//
// Under load the summary covers the measured window only (after BENCH_PROF_WARMUP seconds
// of warm-up, default 3), so start-up and JIT warm-up do not blur the steady state. The
// .cpuprofile (whole run) is kept in bench/results/profiles/ (open it in Chrome DevTools).
import { mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { killAll } from "./lib/children.mjs";
import { HttpPeer, httpThroughput, newAgent, openSessions } from "./lib/http-client.mjs";
import { startHttpServer } from "./lib/http-server.mjs";
import { startNginx } from "./lib/nginx.mjs";
import { StdioPeer, throughput } from "./lib/stdio-client.mjs";

const [implArg = "mcpkit", scenario = "stdio", secondsArg = "5"] = process.argv.slice(2);
const impls = implArg.split(",");
const impl = impls[0];
const seconds = Number(secondsArg);
const warmup = Number(process.env.BENCH_PROF_WARMUP ?? 3);
const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const root = fileURLToPath(new URL("..", import.meta.url));
const dir = here("results/profiles");
mkdirSync(dir, { recursive: true });
// Sampling interval, µs: finer for a start-up that lasts tens of milliseconds.
const interval = process.env.BENCH_PROF_INTERVAL ?? (scenario === "cold" ? "50" : "1000");
const nodeArgs = (name) => [
  "--cpu-prof",
  `--cpu-prof-interval=${interval}`,
  `--cpu-prof-dir=${dir}`,
  `--cpu-prof-name=${name}-${scenario}-${Date.now()}.cpuprofile`,
];
process.on("exit", killAll);

if (scenario === "sessions") {
  await sessionHeap(Number(secondsArg === "5" ? 1000 : secondsArg));
  process.exit(0);
}

/** Runs one server under the scenario's load with --cpu-prof: the profile's path and the calls in the window. */
async function profileOne(name) {
  const before = new Set(readdirSync(dir));
  let calls = Number.NaN;
  if (scenario === "stdio" || scenario === "cold") {
    const peer = new StdioPeer(here(`servers/${name}-stdio.mjs`), { nodeArgs: nodeArgs(name) });
    await peer.initialize();
    if (scenario === "cold") {
      await peer.request("tools/list", {});
    } else {
      await throughput(peer, { inFlight: 64, seconds: warmup });
      const load = await throughput(peer, { inFlight: 64, seconds });
      calls = load.calls;
      console.log(`${name} stdio: ${Math.round(load.calls / load.seconds)} calls/s (profiling slows it down)`);
    }
    await peer.close(5000);
  } else {
    const server = await startHttpServer(here(`servers/${name}-http.mjs`), {
      mode: scenario,
      nodeArgs: nodeArgs(name),
    });
    // BENCH_PROF_NGINX=1: through nginx, as the cluster scenario reaches its nodes.
    const nginx = process.env.BENCH_PROF_NGINX === "1" ? await startNginx([server.port]) : undefined;
    const agent = newAgent(32);
    const peers = Array.from({ length: 32 }, () => new HttpPeer(nginx?.port ?? server.port, agent));
    const modern = scenario === "modern";
    if (!modern) for (const peer of peers) await peer.initialize();
    await httpThroughput(peers, { modern, seconds: warmup });
    const load = await httpThroughput(peers, { modern, seconds });
    calls = load.calls;
    console.log(`${name} ${scenario}: ${Math.round(load.calls / load.seconds)} calls/s (profiling slows it down)`);
    agent.destroy();
    await nginx?.stop();
    await server.close(10_000);
  }
  const written = readdirSync(dir).filter((f) => !before.has(f) && f.endsWith(".cpuprofile"));
  if (written.length === 0) throw new Error("no profile was written (did the server exit normally?)");
  const file = `${dir}/${written.sort((a, b) => statSync(`${dir}/${a}`).mtimeMs - statSync(`${dir}/${b}`).mtimeMs).at(-1)}`;
  return { name, file, calls };
}

const runs = [];
for (const name of impls) runs.push(await profileOne(name));
// The measured window: the last `seconds` before the load ended (shutdown takes a few ms).
const windowSeconds = scenario === "cold" ? Infinity : seconds;
if (runs.length === 1) {
  print(analyze(JSON.parse(readFileSync(runs[0].file, "utf8")), windowSeconds));
} else {
  compare(
    runs.map((run) => ({ ...run, analysis: analyze(JSON.parse(readFileSync(run.file, "utf8")), windowSeconds) })),
  );
}
for (const run of runs) console.log(`\nprofile: ${run.file.slice(root.length)}`);

function where(frame) {
  const url = frame.url.replace(/^file:\/\//, "");
  if (url === "") return "(native)";
  const nm = url.lastIndexOf("node_modules/");
  if (nm >= 0) {
    const rest = url.slice(nm + "node_modules/".length).split("/");
    const pkg = rest[0].startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0];
    return `${pkg}/${rest.slice(rest[0].startsWith("@") ? 2 : 1).join("/")}`;
  }
  return url.startsWith(root) ? url.slice(root.length) : url;
}

/** Samples in the window, by function (self and inclusive) and by file; `interval` is the mean µs per sample. */
function analyze(profile, windowSeconds) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  // Sample times (µs from the start); keep those in the window that ends at the last busy sample.
  const times = [];
  let t = 0;
  for (const delta of profile.timeDeltas) {
    t += delta;
    times.push(t);
  }
  let end = times.length - 1;
  while (end > 0 && byId.get(profile.samples[end]).callFrame.functionName === "(idle)") end--;
  const from = times[end] - windowSeconds * 1e6;
  const hits = new Map();
  let total = 0;
  let first;
  for (let i = 0; i <= end; i++) {
    if (times[i] < from) continue;
    first ??= i;
    const id = profile.samples[i];
    hits.set(id, (hits.get(id) ?? 0) + 1);
    total++;
  }
  // Samples are wall-clock ticks: a server that wakes its client with a socket or pipe write
  // is often descheduled inside that write while the client runs (on a machine whose cores
  // are shared), so those samples are set apart rather than counted as work.
  const isIdle = (f) => f.functionName === "(idle)";
  const isWrite = (f) =>
    f.url === "" && /^(writev|writeUtf8String|writeBuffer|writeLatin1String)$/.test(f.functionName);
  let idle = 0;
  let writes = 0;
  for (const [id, count] of hits) {
    const frame = byId.get(id).callFrame;
    if (isIdle(frame)) idle += count;
    else if (isWrite(frame)) writes += count;
  }
  const busy = total - idle - writes;
  const key = (f) => `${f.functionName || "(anonymous)"} ${where(f)}:${f.lineNumber + 1}`;
  const self = new Map();
  const files = new Map();
  const inclusive = new Map();
  for (const [id, count] of hits) {
    const frame = byId.get(id).callFrame;
    if (isIdle(frame) || isWrite(frame)) continue;
    self.set(key(frame), (self.get(key(frame)) ?? 0) + count);
    // Native frames by name: (garbage collector), (program), JSON's parse and stringify…
    const w = frame.url === "" ? `(native) ${frame.functionName}` : where(frame);
    files.set(w, (files.get(w) ?? 0) + count);
    const seen = new Set();
    for (let n = id; n !== undefined; n = parent.get(n)) {
      const k = key(byId.get(n).callFrame);
      if (seen.has(k)) continue;
      seen.add(k);
      inclusive.set(k, (inclusive.get(k) ?? 0) + count);
    }
  }
  const interval = total > 1 ? (times[end] - times[first]) / (total - 1) : Number.NaN;
  return { total, busy, writes, idle, self, inclusive, files, interval };
}

function top(map, n) {
  return [...map].sort((a, b) => b[1] - a[1]).slice(0, n);
}

function print({ total, busy, writes, idle, self, inclusive, files }) {
  const pct = (c) => `${((c / busy) * 100).toFixed(1).padStart(5)}%`;
  console.log(
    `\n${total} samples in the measured window: ${busy} busy (${pct(busy)}), ${writes} in socket/pipe writes, ${idle} idle; ` +
      "shares below are of the busy samples",
  );
  console.log("\nself time by function:");
  for (const [k, c] of top(self, 30)) console.log(`${pct(c)}  ${k}`);
  console.log("\ninclusive time by function:");
  for (const [k, c] of top(inclusive, 40)) console.log(`${pct(c)}  ${k}`);
  console.log("\nself time by file:");
  for (const [k, c] of top(files, 25)) console.log(`${pct(c)}  ${k}`);
}

/**
 * Two or more servers under the same load: busy CPU µs per call by file, package or native
 * function, side by side (samples × the mean sampling interval ÷ the calls in the window).
 */
function compare(runs) {
  const perCall = (run, count) => (count * run.analysis.interval) / run.calls;
  const names = runs.map((r) => r.name);
  const rows = new Map();
  for (const [i, run] of runs.entries()) {
    for (const [file, count] of run.analysis.files) {
      const row = rows.get(file) ?? names.map(() => 0);
      row[i] = perCall(run, count);
      rows.set(file, row);
    }
  }
  const cell = (x) => x.toFixed(2).padStart(10);
  const head = names.map((n) => n.slice(0, 14).padStart(14)).join("");
  console.log(`\nbusy CPU µs per call (socket/pipe writes and idle set apart, as in a single profile)\n${head}  where`);
  const line = (values, label) => console.log(`${values.map((v) => cell(v).padStart(14)).join("")}  ${label}`);
  line(
    runs.map((r) => perCall(r, r.analysis.busy)),
    "all busy samples",
  );
  line(
    runs.map((r) => perCall(r, r.analysis.writes)),
    "in socket/pipe writes (not counted above)",
  );
  const sorted = [...rows].sort((a, b) => Math.max(...b[1]) - Math.max(...a[1]));
  for (const [file, values] of sorted.slice(0, 40)) line(values, file);
}

/** Heap snapshots with 20 and 20 + n idle sessions: retained size per session by constructor. */
async function sessionHeap(n) {
  const server = await startHttpServer(here(`servers/${impl}-http.mjs`), { mode: "stateful" });
  const agent = newAgent(4);
  try {
    await openSessions(server.port, agent, 20, 4);
    await server.memory(); // forced GC
    const a = await server.snapshot(`${dir}/${impl}-sessions-0.heapsnapshot`);
    await openSessions(server.port, agent, n, 4);
    await server.memory();
    const b = await server.snapshot(`${dir}/${impl}-sessions-${n}.heapsnapshot`);
    const [before, after] = [a, b].map((f) => countByConstructor(JSON.parse(readFileSync(f, "utf8"))));
    const rows = [];
    let total = 0;
    for (const [name, { size, count }] of after) {
      const was = before.get(name) ?? { size: 0, count: 0 };
      const bytes = (size - was.size) / n;
      total += bytes;
      if (Math.abs(bytes) >= 8) rows.push([name, bytes, (count - was.count) / n]);
    }
    rows.sort((x, y) => y[1] - x[1]);
    console.log(
      `${impl}: ${(total / 1024).toFixed(2)} KiB of heap objects per idle session (self sizes, ${n} sessions)`,
    );
    for (const [name, bytes, count] of rows.slice(0, 40)) {
      console.log(`${String(Math.round(bytes)).padStart(7)} B  ${count.toFixed(2).padStart(6)} per session  ${name}`);
    }
    console.log(`\nsnapshots: ${a.slice(root.length)}, ${b.slice(root.length)}`);
  } finally {
    agent.destroy();
    await server.close();
  }
}

/** Self size and count of live heap objects by (type, constructor or name). */
function countByConstructor(snapshot) {
  const fields = snapshot.snapshot.meta.node_fields;
  const types = snapshot.snapshot.meta.node_types[0];
  const stride = fields.length;
  const typeAt = fields.indexOf("type");
  const nameAt = fields.indexOf("name");
  const sizeAt = fields.indexOf("self_size");
  const out = new Map();
  const nodes = snapshot.nodes;
  for (let i = 0; i < nodes.length; i += stride) {
    const type = types[nodes[i + typeAt]];
    let name = type === "object" || type === "closure" ? snapshot.strings[nodes[i + nameAt]] : `(${type})`;
    if (type === "closure") name = `closure ${name || "(anonymous)"}`;
    const entry = out.get(name) ?? { size: 0, count: 0 };
    entry.size += nodes[i + sizeAt];
    entry.count++;
    out.set(name, entry);
  }
  return out;
}
