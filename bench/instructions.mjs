#!/usr/bin/env node
// Instructions per call, counted by valgrind (callgrind), for servers side by side: a
// measure that the machine's load does not move (wall time and CPU time do), to decide
// what to change on a shared machine. Each server runs under callgrind with counting off,
// is warmed up with the benchmark's own client and load, then counts for a fixed number of
// calls (every thread of the process: V8's compiler and GC threads included).
//
//   node bench/instructions.mjs <server>[,<server>…] <scenario> [calls] [--heap]
//     server:   bare | bare-min | bare-coalesce | mcpkit | mcpkit-observed | … (bench/servers)
//     scenario: stdio | stateful | stateless | modern | sessions (each "call" opens a session:
//               initialize and notifications/initialized, 4 at a time, and leaves it idle)
//     --heap:   V8 heap bytes allocated per call instead (bench/lib/alloc-probe.mjs, no
//               valgrind): what the garbage collector will have to clear
//
// BENCH_CG_WARMUP (default 20000) calls before counting, BENCH_CG_IN_FLIGHT (default 8)
// calls in flight (HTTP: that many keep-alive connections, each with its own session on the
// 2025 wires), BENCH_CG_ROUNDS (default 1) counts per server, the servers alternating.
// Instructions are not time: a cache miss or a syscall costs more than its count says, so
// read these beside the CPU per call of a profile or a run. Valgrind runs a server about
// 50 times slower; a count of 5,000 calls takes a few seconds per server.
import { execFileSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { killAll } from "./lib/children.mjs";
import { HttpPeer, newAgent, openSessions } from "./lib/http-client.mjs";
import { startHttpServer } from "./lib/http-server.mjs";
import { median } from "./lib/stats.mjs";
import { StdioPeer, throughput } from "./lib/stdio-client.mjs";

const args = process.argv.slice(2).filter((a) => !a.startsWith("--"));
const heap = process.argv.includes("--heap");
const [implArg = "mcpkit,bare-min", scenario = "stateful", callsArg = "5000"] = args;
const impls = implArg.split(",");
const calls = Number(callsArg);
const warmup = Number(process.env.BENCH_CG_WARMUP ?? 20_000);
const inFlight = Number(process.env.BENCH_CG_IN_FLIGHT ?? 8);
const rounds = Number(process.env.BENCH_CG_ROUNDS ?? 1);
const here = (p) => fileURLToPath(new URL(p, import.meta.url));
process.on("exit", killAll);

/** Counting is off until the window: start-up and warm-up are not counted. */
const wrap = (out) => [
  "valgrind",
  "--tool=callgrind",
  "--instr-atstart=no",
  // V8 writes the code it runs: valgrind must see every change to it.
  "--smc-check=all-non-file",
  `--callgrind-out-file=${out}`,
];
const instrument = (pid, on) =>
  execFileSync("callgrind_control", ["-i", on ? "on" : "off", String(pid)], { stdio: "ignore" });
const probe = pathToFileURL(here("lib/alloc-probe.mjs")).href;
/** The allocation probe's window: two SIGUSR2 (bench/lib/alloc-probe.mjs). */
const mark = (pid) => process.kill(pid, "SIGUSR2");

/** `count` HTTP calls with `inFlight` peers each keeping one in flight. */
async function httpCalls(peers, modern, count) {
  let left = count;
  await Promise.all(
    peers.map(async (peer) => {
      while (left-- > 0) await peer.callEchoAsync(modern);
    }),
  );
}

/** The allocation probe's report on the server's stderr (--heap). */
async function probeReport(server, wanted) {
  if (!wanted) return undefined;
  while (!server.stderr.includes('{"alloc"')) await new Promise((resolve) => setTimeout(resolve, 20));
  return server.stderr;
}

/** One server's instructions (or heap bytes) per call in the counted window. */
async function count(name) {
  const out = join(tmpdir(), `mcpkit-callgrind-${name}-${scenario}-${process.pid}-${Date.now()}.out`);
  const options = heap ? { nodeArgs: ["--import", probe] } : { wrap: wrap(out) };
  const [begin, end] = heap ? [mark, mark] : [(pid) => instrument(pid, true), (pid) => instrument(pid, false)];
  let stderr;
  try {
    if (scenario === "stdio") {
      const peer = new StdioPeer(here(`servers/${name}-stdio.mjs`), options);
      await peer.initialize();
      await throughput(peer, { inFlight, calls: warmup });
      begin(peer.pid);
      await throughput(peer, { inFlight, calls });
      end(peer.pid);
      if (heap) return (await peer.stderrJson("alloc")).bytes / calls;
      await peer.close(60_000);
    } else if (scenario === "sessions") {
      const server = await startHttpServer(here(`servers/${name}-http.mjs`), { mode: "stateful", ...options });
      const agent = newAgent(4);
      await openSessions(server.port, agent, Math.min(warmup, 1000), 4);
      begin(server.pid);
      await openSessions(server.port, agent, calls, 4);
      end(server.pid);
      agent.destroy();
      stderr = await probeReport(server, heap);
      await server.close(60_000);
    } else {
      const server = await startHttpServer(here(`servers/${name}-http.mjs`), { mode: scenario, ...options });
      const agent = newAgent(inFlight);
      const peers = Array.from({ length: inFlight }, () => new HttpPeer(server.port, agent));
      const modern = scenario === "modern";
      if (!modern) for (const peer of peers) await peer.initialize();
      await httpCalls(peers, modern, warmup);
      begin(server.pid);
      await httpCalls(peers, modern, calls);
      end(server.pid);
      agent.destroy();
      stderr = await probeReport(server, heap);
      await server.close(60_000);
    }
    if (heap) return JSON.parse(/\{"alloc".*\}/.exec(stderr)[0]).alloc.bytes / calls;
    const totals = /^totals: (\d+)/m.exec(readFileSync(out, "utf8"));
    if (!totals) throw new Error(`${out}: no totals line`);
    return Number(totals[1]) / calls;
  } finally {
    // BENCH_CG_KEEP=1 keeps the callgrind file for callgrind_annotate (native functions by name).
    if (process.env.BENCH_CG_KEEP === "1" && !heap) process.stderr.write(`kept ${out}\n`);
    else rmSync(out, { force: true });
  }
}

const unit = heap ? "heap bytes allocated" : "instructions";
const samples = Object.fromEntries(impls.map((name) => [name, []]));
for (let round = 0; round < rounds; round++) {
  for (const name of impls) {
    const perCall = await count(name);
    samples[name].push(perCall);
    process.stderr.write(
      `${name} ${scenario} round ${round + 1}/${rounds}: ${Math.round(perCall)} instructions/call\n`,
    );
  }
}
const reference = median(samples[impls.at(-1)]);
console.log(`\n${unit} per call, ${scenario}, ${calls} calls counted after ${warmup}, ${inFlight} in flight`);
for (const name of impls) {
  const value = median(samples[name]);
  console.log(
    `${String(Math.round(value)).padStart(10)}  ${(value / reference).toFixed(2)}× ${impls.at(-1)}  ${name}` +
      (rounds > 1 ? `  (rounds: ${samples[name].map(Math.round).join(", ")})` : ""),
  );
}
