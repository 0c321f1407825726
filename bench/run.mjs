#!/usr/bin/env node
// Benchmarks (not part of npm test). For now: stdio calls/s with 64 requests in flight,
// mcpkit against a bare no-framework baseline, run alternately (A B A B …) so drift hits
// both; the median of the rounds is reported with min–max. Issue 7 extends this to the
// official SDK, other frameworks, HTTP, latency, memory and cold start.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CALLS = Number(process.env.BENCH_CALLS ?? 20_000);
const IN_FLIGHT = 64;
const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const servers = {
  bare: here("servers/bare-stdio.mjs"),
  mcpkit: here("servers/mcpkit-stdio.mjs"),
};

/** The load client: plain Node, the same cost for every server. */
async function stdioRound(script) {
  const child = spawn(process.execPath, [script], { stdio: ["pipe", "pipe", "inherit"] });
  const waiting = new Map();
  createInterface({ input: child.stdout }).on("line", (line) => {
    const message = JSON.parse(line);
    waiting.get(message.id)?.(message);
    waiting.delete(message.id);
  });
  let id = 0;
  const request = (method, params) =>
    new Promise((resolve) => {
      id++;
      waiting.set(id, resolve);
      child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
    });
  await request("initialize", {
    protocolVersion: "2025-11-25",
    capabilities: {},
    clientInfo: { name: "bench", version: "1" },
  });
  child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
  const started = performance.now();
  let sent = 0;
  let done = 0;
  await new Promise((resolve) => {
    const pump = () => {
      while (sent < CALLS && sent - done < IN_FLIGHT) {
        sent++;
        request("tools/call", { name: "echo", arguments: { text: "hello" } }).then(() => {
          done++;
          if (done === CALLS) resolve();
          else pump();
        });
      }
    };
    pump();
  });
  const seconds = (performance.now() - started) / 1000;
  child.kill();
  return CALLS / seconds;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const results = Object.fromEntries(Object.keys(servers).map((k) => [k, []]));
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, script] of Object.entries(servers)) results[name].push(await stdioRound(script));
}
const bare = median(results.bare);
console.log(`stdio tools/call, ${IN_FLIGHT} in flight, ${CALLS} calls × ${ROUNDS} rounds, Node ${process.version}`);
console.log("| server | calls/s (median) | min–max | × bare |");
console.log("| --- | ---: | ---: | ---: |");
for (const [name, xs] of Object.entries(results)) {
  const m = median(xs);
  console.log(
    `| ${name} | ${Math.round(m)} | ${Math.round(Math.min(...xs))}–${Math.round(Math.max(...xs))} | ${(m / bare).toFixed(2)} |`,
  );
}
