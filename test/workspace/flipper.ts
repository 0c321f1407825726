import { type ChildProcess, spawn } from "node:child_process";
import { EventEmitter } from "node:events";

/**
 * A hostile local process: renames `dir` away and `link` (a symbolic link) into its place,
 * and back, as fast as it can, until stopped. In a child process, so it truly runs
 * alongside the server. Reports its count after each burst of 400 flips.
 */
const FLIPPER = `
const fs = require("fs");
const [dir, real, link] = process.argv.slice(1);
let flips = 0, stop = false;
process.stdin.on("end", () => { stop = true; }).resume();
process.stdout.write("at 0\\n");
const burst = () => {
  for (let i = 0; i < 200; i++) {
    try {
      fs.renameSync(dir, real); fs.renameSync(link, dir);
      fs.renameSync(dir, link); fs.renameSync(real, dir);
      flips += 2;
    } catch {}
  }
  process.stdout.write("at " + flips + "\\n");
  if (stop) process.exit(0);
  setImmediate(burst);
};
burst();
`;

export interface Flipper {
  /** Flips done so far, as last reported. */
  flips(): number;
  /** Resolves once `n` flips are done. */
  reached(n: number): Promise<void>;
  /** Stops flipping (leaving `dir` a real directory) and resolves with the number of flips. */
  stop(): Promise<number>;
}

/** Starts flipping `dir`; `real` is a free name for the directory, `link` the link to swap in. */
export async function startFlipper(dir: string, real: string, link: string): Promise<Flipper> {
  const child: ChildProcess = spawn(process.execPath, ["-e", FLIPPER, dir, real, link], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  let latest = -1;
  let partial = "";
  const progress = new EventEmitter();
  child.stdout?.on("data", (chunk: Buffer) => {
    const lines = (partial + chunk.toString("utf8")).split("\n");
    partial = lines.pop() ?? "";
    for (const line of lines) {
      const n = /^at (\d+)$/.exec(line)?.[1];
      if (n !== undefined) latest = Number(n);
    }
    progress.emit("flips");
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const reached = (n: number) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (latest < n) return;
        progress.off("flips", check);
        resolve();
      };
      progress.on("flips", check);
      exited.then(() => reject(new Error(`the flipper stopped at ${latest} flips, before ${n}`)));
      check();
    });
  await reached(0);
  return {
    flips: () => latest,
    reached,
    async stop() {
      child.stdin?.end();
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(timer);
      return latest;
    },
  };
}
