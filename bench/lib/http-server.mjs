// Starts an HTTP benchmark server as a child process and talks to its side channel
// (bench/servers/lib/control.mjs): the port it listens on, its memory on request.
import { spawn } from "node:child_process";
import { track } from "./children.mjs";

/** `wrap`: a command the server runs under (valgrind and its options: bench/instructions.mjs). */
export async function startHttpServer(script, { mode, env, nodeArgs = [], wrap = [] }) {
  const [command, ...prefix] = [...wrap, process.execPath];
  const child = spawn(command, [...prefix, "--expose-gc", ...nodeArgs, script], {
    stdio: ["pipe", "pipe", "pipe"],
    env: { ...process.env, ...env, BENCH_MODE: mode },
  });
  track(child);
  const exited = new Promise((resolve) => child.once("exit", resolve));
  let stderr = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  child.stdin.on("error", () => {});
  const waiters = [];
  let partial = "";
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk) => {
    partial += chunk;
    for (let i = partial.indexOf("\n"); i >= 0; i = partial.indexOf("\n")) {
      const line = partial.slice(0, i);
      partial = partial.slice(i + 1);
      let message;
      try {
        message = JSON.parse(line);
      } catch {
        continue; // a framework's own output
      }
      const waiter = waiters.findIndex((w) => w.key in message);
      if (waiter >= 0) waiters.splice(waiter, 1)[0].resolve(message);
    }
  });
  const next = (key) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${script}: no "${key}" within 60 s ${stderr}`)), 60_000);
      waiters.push({
        key,
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m);
        },
      });
      void exited.then(() => {
        clearTimeout(timer);
        reject(new Error(`${script} exited ${stderr}`));
      });
    });
  const { port } = await next("ready");
  return {
    pid: child.pid,
    port,
    get stderr() {
      return stderr;
    },
    /** Memory after a forced GC, from inside the server. */
    async memory() {
      const answer = next("mem");
      child.stdin.write("mem\n");
      return (await answer).mem;
    },
    /** Ends stdin (the server exits); after `graceMs` SIGTERM, then SIGKILL. */
    /** Writes a heap snapshot (bench/profile.mjs sessions). */
    async snapshot(path) {
      const answer = next("snap");
      child.stdin.write(`snap ${path}\n`);
      return (await answer).snap;
    },
    async close(graceMs = 0) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.stdin.end();
      const term = setTimeout(() => child.kill("SIGTERM"), graceMs);
      const kill = setTimeout(() => child.kill("SIGKILL"), graceMs + 2000);
      await exited;
      clearTimeout(term);
      clearTimeout(kill);
    },
  };
}
