import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A port nobody listens on now (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

export interface RunningRedis {
  url: string;
  port: number;
  /** Stops the server (SIGKILL with `hard`, as a crash would). */
  stop(hard?: boolean): Promise<void>;
}

/** A real redis-server on 127.0.0.1, no persistence, in a temporary directory. */
export async function startRedis(port?: number): Promise<RunningRedis> {
  if (spawnSync("redis-server", ["--version"]).error) {
    throw new Error("redis-server is not installed: `npm test` installs it (apt-get install -y redis-server)");
  }
  const chosen = port ?? (await freePort());
  const dir = mkdtempSync(join(tmpdir(), "mcpkit-redis-"));
  const child: ChildProcess = spawn(
    "redis-server",
    ["--port", String(chosen), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`redis-server did not start:\n${output}`)), 15_000);
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("Ready to accept connections")) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited (${code}):\n${output}`));
    });
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  // A test run that ends without its afterAll (a killed worker) leaves no server behind.
  const orphaned = () => child.kill("SIGKILL");
  process.once("exit", orphaned);
  void exited.then(() => process.off("exit", orphaned));
  return {
    url: `redis://127.0.0.1:${chosen}`,
    port: chosen,
    async stop(hard = false) {
      if (child.exitCode === null && child.signalCode === null) child.kill(hard ? "SIGKILL" : "SIGTERM");
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
