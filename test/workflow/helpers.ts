import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The built `mcpkit` as a person runs it: a real process, in a folder of the test's, with
 * the home directory the test gives (so no real client's configuration is read or written).
 */
export const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const CLI_BIN = join(REPO_ROOT, "packages/cli/bin/mcpkit.js");
export const FIXTURES = fileURLToPath(new URL("./fixtures/", import.meta.url));

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** A home directory of the test's: HOME and XDG_CONFIG_HOME point into it. */
export function homeEnv(home: string): NodeJS.ProcessEnv {
  return { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, ".config"), NO_COLOR: "1" };
}

/** Runs `mcpkit ARGS…` to its end, stdin closed. */
export function mcpkit(
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeout?: number },
): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [CLI_BIN, ...args],
      { cwd: options.cwd, env: options.env ?? { ...process.env, NO_COLOR: "1" }, timeout: options.timeout ?? 30_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
    child.stdin?.end();
  });
}

/** A process left running (mcpkit dev, mcpkit serve --port): its output so far, and how to stop it. */
export interface Running {
  child: ChildProcess;
  readonly stdout: string;
  readonly stderr: string;
  /** Resolves with the first match of `pattern` in stderr (or stdout); rejects if the process exits first. */
  waitFor(pattern: RegExp, ms?: number, stream?: "stderr" | "stdout"): Promise<RegExpExecArray>;
  stop(): Promise<void>;
}

const live = new Set<Running>();

export function start(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): Running {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env ?? { ...process.env, NO_COLOR: "1" },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  const listeners = new Set<() => void>();
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
    for (const listener of listeners) listener();
  });
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
    for (const listener of listeners) listener();
  });
  const exited = new Promise<void>((resolve) => child.once("close", () => resolve()));
  const running: Running = {
    child,
    get stdout() {
      return stdout;
    },
    get stderr() {
      return stderr;
    },
    waitFor(pattern, ms = 20_000, stream = "stderr") {
      return new Promise((resolve, reject) => {
        const done = (error?: Error, match?: RegExpExecArray) => {
          listeners.delete(check);
          clearTimeout(timer);
          if (error) reject(error);
          else resolve(match as RegExpExecArray);
        };
        const check = () => {
          const match = pattern.exec(stream === "stderr" ? stderr : stdout);
          if (match) done(undefined, match);
        };
        const timer = setTimeout(
          () => done(new Error(`Timed out after ${ms} ms waiting for ${pattern} in:\n${stderr}`)),
          ms,
        );
        listeners.add(check);
        void exited.then(() => {
          if (listeners.has(check)) done(new Error(`The process exited before ${pattern} appeared:\n${stderr}`));
        });
        check();
      });
    },
    async stop() {
      live.delete(running);
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
        await exited;
        clearTimeout(timer);
      }
    },
  };
  live.add(running);
  return running;
}

/** `mcpkit ARGS…` left running. */
export const startMcpkit = (args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }) =>
  start(process.execPath, [CLI_BIN, ...args], options);

/** Stops every process a test left running. */
export async function stopAll(): Promise<void> {
  await Promise.all([...live].map((running) => running.stop()));
}

/** A temporary folder, removed by the returned function. */
export function scratch(prefix: string): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), `mcpkit-${prefix}-`));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
