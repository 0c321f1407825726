#!/usr/bin/env node
// `node bench/inspect-start.mjs [runs]` (not part of npm test): how long `mcpkit inspect`
// takes to print its URL (the page is served from then on) next to how long
// `mcpkit --version` takes to exit, alternating the two; medians and ranges in ms. The
// inspected URL has no server behind it: connecting happens after the URL is printed.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const cli = fileURLToPath(new URL("../packages/cli/bin/mcpkit.js", import.meta.url));
const runs = Number(process.argv[2] ?? 20);

/** Milliseconds from spawn until `done(output)` is true (or the process exits). */
function time(args, done) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, [cli, ...args], { stdio: ["ignore", "pipe", "ignore"] });
    let out = "";
    let settled = false;
    const finish = () => {
      if (settled) return;
      settled = true;
      resolve(Number(process.hrtime.bigint() - started) / 1e6);
      child.kill();
    };
    child.stdout.setEncoding("utf8").on("data", (chunk) => {
      out += chunk;
      if (done(out)) finish();
    });
    child.once("exit", (code) => (code === 0 || settled ? finish() : reject(new Error(`exit ${code}`))));
  });
}

const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return `median ${s[Math.floor(s.length / 2)].toFixed(0)} ms (min ${s[0].toFixed(0)}, max ${s.at(-1).toFixed(0)})`;
};

const version = [];
const inspect = [];
for (let i = 0; i < runs; i++) {
  version.push(await time(["--version"], () => false));
  inspect.push(await time(["inspect", "http://127.0.0.1:9/mcp"], (out) => out.includes("?token=")));
}
process.stdout.write(`mcpkit --version, until it exits:             ${stats(version)}\n`);
process.stdout.write(`mcpkit inspect URL, until it prints its URL:  ${stats(inspect)}\n`);
