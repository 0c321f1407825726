import { type ChildProcess, spawn } from "node:child_process";

/**
 * A hostile local process: renames `dir` away and `link` (a symbolic link) into its place,
 * and back, as fast as it can, until stopped. In a child process, so it truly runs
 * alongside the server.
 */
const FLIPPER = `
const fs = require("fs");
const [dir, real, link] = process.argv.slice(1);
let flips = 0, stop = false;
process.stdin.on("end", () => { stop = true; }).resume();
process.stdout.write("ready\\n");
const burst = () => {
  for (let i = 0; i < 200; i++) {
    try {
      fs.renameSync(dir, real); fs.renameSync(link, dir);
      fs.renameSync(dir, link); fs.renameSync(real, dir);
      flips += 2;
    } catch {}
  }
  if (stop) { process.stdout.write("flips " + flips + "\\n"); process.exit(0); }
  setImmediate(burst);
};
burst();
`;

export interface Flipper {
  /** Stops flipping (leaving `dir` a real directory) and resolves with the number of flips. */
  stop(): Promise<number>;
}

/** Starts flipping `dir`; `real` is a free name for the directory, `link` the link to swap in. */
export async function startFlipper(dir: string, real: string, link: string): Promise<Flipper> {
  const child: ChildProcess = spawn(process.execPath, ["-e", FLIPPER, dir, real, link], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  let out = "";
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString("utf8");
      if (out.includes("ready")) resolve();
    });
    child.once("exit", () => reject(new Error(`the flipper exited early: ${out}`)));
  });
  return {
    async stop() {
      child.stdin?.end();
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(timer);
      return Number(/flips (\d+)/.exec(out)?.[1] ?? 0);
    },
  };
}
