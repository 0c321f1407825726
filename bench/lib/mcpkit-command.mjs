// Starts the `mcpkit` command as a benchmark server (`serve proxy`, `gateway`): on a port of
// its own, resolved once it says it serves; its process id for its CPU time.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { track } from "./children.mjs";
import { freePort } from "./ports.mjs";

const MCPKIT = fileURLToPath(new URL("../../packages/cli/bin/mcpkit.js", import.meta.url));

/** `mcpkit COMMAND… --port P ARGS…` (the port before `--`), with `env`; `{ pid, port, stderr, close() }`. */
export async function startMcpkit(command, args, { env = {}, nodeArgs = [] } = {}) {
  const port = await freePort();
  const child = spawn(process.execPath, [...nodeArgs, MCPKIT, ...command, "--port", String(port), ...args], {
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...process.env, ...env },
  });
  track(child);
  const exited = new Promise((resolve) => child.once("exit", resolve));
  let stderr = "";
  child.stderr.setEncoding("utf8");
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`mcpkit ${command.join(" ")} did not start: ${stderr}`)), 60_000);
    child.stderr.on("data", (chunk) => {
      stderr = (stderr + chunk).slice(-8000);
      if (stderr.includes("serving MCP on")) {
        clearTimeout(timer);
        resolve();
      }
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`mcpkit ${command.join(" ")} exited: ${stderr}`));
    });
  });
  return {
    pid: child.pid,
    port,
    get stderr() {
      return stderr;
    },
    async close() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      const kill = setTimeout(() => child.kill("SIGKILL"), 5000);
      await exited;
      clearTimeout(kill);
    },
  };
}
