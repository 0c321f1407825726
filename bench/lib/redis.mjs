// A redis-server for the Redis-backed rows: on a free loopback port, no persistence,
// started once per run and stopped with the other children; and its command counters.
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { track } from "./children.mjs";
import { freePort } from "./ports.mjs";

let running;

/** The run's redis-server, started on first use: `{ url, port, pid }`. */
export function redisServer() {
  running ??= (async () => {
    const port = await freePort();
    const dir = mkdtempSync(join(tmpdir(), "mcpkit-bench-redis-"));
    const args = ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir];
    const child = spawn("redis-server", args, { stdio: ["ignore", "pipe", "ignore"] });
    track(child);
    await new Promise((resolve, reject) => {
      let out = "";
      child.once("error", () => reject(new Error("redis-server is not installed (apt-get install redis-server)")));
      child.stdout.on("data", (chunk) => {
        out += chunk;
        if (out.includes("Ready to accept connections")) resolve();
      });
    });
    return { url: `redis://127.0.0.1:${port}`, port, pid: child.pid };
  })();
  return running;
}

/** The URL of the run's redis-server, started on first use. */
export const redisUrl = async () => (await redisServer()).url;

/**
 * How many times Redis has run each command so far (`INFO commandstats`), e.g.
 * `{ get: 12, set: 3 }`.
 */
export function commandStats(port) {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let reply = "";
    socket.setEncoding("utf8");
    socket.once("error", reject);
    socket.on("data", (chunk) => {
      reply += chunk;
      // A bulk string: $<length>\r\n<body>\r\n.
      const header = reply.indexOf("\r\n");
      if (header < 0) return;
      const length = Number(reply.slice(1, header));
      if (Buffer.byteLength(reply) < header + 2 + length + 2) return;
      socket.end();
      const counts = {};
      for (const match of reply.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) counts[match[1]] = Number(match[2]);
      resolve(counts);
    });
    socket.write("*2\r\n$4\r\nINFO\r\n$12\r\ncommandstats\r\n");
  });
}

/**
 * What Redis ran between two `commandStats` readings, busiest first, without the INFO of
 * the first reading (which the second counts).
 */
export function commandDelta(before, after) {
  return Object.fromEntries(
    Object.entries(after)
      .map(([name, calls]) => [name, calls - (before[name] ?? 0) - (name === "info" ? 1 : 0)])
      .filter(([, calls]) => calls > 0)
      .sort((a, b) => b[1] - a[1]),
  );
}
