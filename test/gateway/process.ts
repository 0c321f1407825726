import { type ChildProcess, spawn } from "node:child_process";
import { freePort } from "../../packages/redis/test/redis-server.js";
import { MCPKIT_BIN } from "../interop/helpers.js";

/** One `mcpkit gateway --config FILE --port P …` process, resolved once it serves HTTP. */
export interface GatewayProcess {
  port: number;
  url: string;
  pid: number;
  /** What it printed on stderr so far. */
  log(): string;
  /** Resolves once its stderr holds `text` (after `from` characters). */
  printed(text: string | RegExp, from?: number, timeoutMs?: number): Promise<void>;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export async function startGatewayProcess(
  config: string,
  args: string[] = [],
  options: { env?: Record<string, string>; port?: number } = {},
): Promise<GatewayProcess> {
  const port = options.port ?? (await freePort());
  const child: ChildProcess = spawn(
    process.execPath,
    [MCPKIT_BIN, "gateway", "--config", config, "--port", String(port), ...args],
    { env: { ...process.env, ...options.env }, stdio: ["ignore", "ignore", "pipe"] },
  );
  let stderr = "";
  const listeners = new Set<() => void>();
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
    for (const listener of listeners) listener();
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const orphaned = () => child.kill("SIGKILL");
  process.once("exit", orphaned);
  void exited.then(() => process.off("exit", orphaned));
  const printed = (text: string | RegExp, from = 0, timeoutMs = 20_000) =>
    new Promise<void>((resolve, reject) => {
      const found = () => (typeof text === "string" ? stderr.includes(text, from) : text.test(stderr.slice(from)));
      if (found()) return resolve();
      const timer = setTimeout(() => {
        listeners.delete(check);
        reject(new Error(`gateway on ${port} did not print ${text}:\n${stderr}`));
      }, timeoutMs);
      const check = () => {
        if (!found()) return;
        clearTimeout(timer);
        listeners.delete(check);
        resolve();
      };
      listeners.add(check);
      void exited.then(() => {
        if (found()) return;
        clearTimeout(timer);
        reject(new Error(`gateway on ${port} exited:\n${stderr}`));
      });
    });
  await printed("serving MCP on");
  return {
    port,
    url: `http://127.0.0.1:${port}/mcp`,
    pid: child.pid as number,
    log: () => stderr,
    printed,
    async stop(signal = "SIGTERM") {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}
