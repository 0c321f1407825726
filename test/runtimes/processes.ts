import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const example = (name: string) => fileURLToPath(new URL(`../../examples/runtimes/${name}`, import.meta.url));

/** Bun, Deno and workerd load mcpkit as users do, from its build (package.json "exports"). */
export function assertBuilt(): void {
  if (!existsSync(`${ROOT}packages/mcpkit/dist/index.js`))
    throw new Error("packages/mcpkit/dist is missing: run `npx tsc -b packages/mcpkit` first");
}

const live = new Set<ChildProcess>();

/** Ends every process a test started, and waits until each has exited. */
export async function stopAll(): Promise<void> {
  const children = [...live];
  live.clear();
  await Promise.all(
    children.map((child) => {
      if (child.exitCode !== null || child.signalCode !== null) return undefined;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGKILL");
      return exited;
    }),
  );
}

export interface Started {
  child: ChildProcess;
  /** What it wrote to stdout and stderr so far, for failure messages. */
  output(): string;
}

/** Starts a process that stopAll() will end, recording its output. */
export function start(command: string, args: string[], env: Record<string, string> = {}): Started {
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe", "pipe"],
  });
  live.add(child);
  let output = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    output += chunk;
  });
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    output += chunk;
  });
  return { child, output: () => output };
}

/**
 * Resolves with the first match of `pattern` in what `started` writes (stdout and stderr,
 * or the stream given); fails if the process exits first or `ms` pass.
 */
export function waitForOutput(
  started: Started,
  pattern: RegExp,
  ms = 30_000,
  stream = started.child.stdout,
): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let seen = "";
    const onData = (chunk: Buffer | string) => {
      seen += chunk.toString();
      const match = pattern.exec(seen);
      if (match) done(() => resolve(match));
    };
    const onExit = (code: number | null) =>
      done(() => reject(new Error(`The process exited (${code}) before printing ${pattern}:\n${started.output()}`)));
    const timer = setTimeout(
      () => done(() => reject(new Error(`Nothing matched ${pattern} within ${ms} ms:\n${started.output()}`))),
      ms,
    );
    const done = (settle: () => void) => {
      clearTimeout(timer);
      stream?.off("data", onData);
      started.child.off("exit", onExit);
      settle();
    };
    stream?.on("data", onData);
    started.child.once("exit", onExit);
  });
}

/** Runs a command to its end; resolves with its stdout, or fails with everything it printed. */
export async function run(command: string, args: string[], ms = 30_000): Promise<string> {
  const started = start(command, args);
  let stdout = "";
  started.child.stdout?.on("data", (chunk: string) => {
    stdout += chunk;
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${command} ran over ${ms} ms:\n${started.output()}`)), ms);
    // "close", not "exit": by then everything it printed has been read.
    started.child.once("close", (exitCode) => {
      clearTimeout(timer);
      resolve(exitCode);
    });
  });
  live.delete(started.child);
  if (code !== 0) throw new Error(`${command} ${args.join(" ")} exited with ${code}:\n${started.output()}`);
  return stdout;
}
