// The side channel every HTTP benchmark server shares: it announces its port on stdout,
// answers "mem" on stdin with its memory after a forced GC ("snap <path>" with a heap
// snapshot), and exits when stdin closes, so a server never outlives the runner that started it.
import process from "node:process";
import { writeHeapSnapshot } from "node:v8";

/** stateful (2025-11-25 sessions) | stateless (2025-11-25, no session) | modern (2026-07-28). */
export const MODE = process.env.BENCH_MODE ?? "stateful";

export function ready(server) {
  const { port } = server.address();
  process.stdout.write(`${JSON.stringify({ ready: true, port })}\n`);
  let buffered = "";
  process.stdin.setEncoding("utf8");
  process.stdin.on("data", (chunk) => {
    buffered += chunk;
    for (let i = buffered.indexOf("\n"); i >= 0; i = buffered.indexOf("\n")) {
      const command = buffered.slice(0, i);
      buffered = buffered.slice(i + 1);
      if (command === "mem") {
        for (let n = 0; n < 3; n++) globalThis.gc?.();
        const { rss, heapUsed, heapTotal, external, arrayBuffers } = process.memoryUsage();
        process.stdout.write(`${JSON.stringify({ mem: { rss, heapUsed, heapTotal, external, arrayBuffers } })}\n`);
      } else if (command.startsWith("snap ")) {
        process.stdout.write(`${JSON.stringify({ snap: writeHeapSnapshot(command.slice(5)) })}\n`);
      }
    }
  });
  process.stdin.on("end", () => process.exit(0));
}
