// A redis-server for the Redis-backed rows: on a free loopback port, no persistence,
// started once per run and stopped with the other children.
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { track } from "./children.mjs";

const freePort = () =>
  new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });

let running;

/** The URL of the run's redis-server, started on first use. */
export function redisUrl() {
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
    return `redis://127.0.0.1:${port}`;
  })();
  return running;
}
