import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/**
 * Helpers for end-to-end stdio tests: real child processes, raw newline-delimited JSON on
 * their stdin/stdout, and every wait bounded so that no test can hang.
 */

export const REPO_ROOT = fileURLToPath(new URL("../../../../", import.meta.url));
export const CLI_BIN = `${REPO_ROOT}packages/cli/bin/mcpkit.js`;
export const FIXTURES = fileURLToPath(new URL("./fixtures/", import.meta.url));

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Rejects with a clear message when `promise` does not settle within `ms`. */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** How often a condition that raises no event of its own is looked at again. */
const POLL_MS = 20;

/**
 * Waits for `probe` to give something (neither undefined nor false) and returns it, looking
 * again every POLL_MS: for a condition that raises no event of its own (another process's
 * state, a store's keys). Fails after `ms`, saying what it waited for. Where an event says
 * it, wait for the event instead.
 */
export async function until<T>(
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  what: string,
  ms = 5000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`Timed out after ${ms} ms waiting for ${what}`);
    await sleep(POLL_MS);
  }
}

/** Polls `check` until it returns true or `ms` pass; returns the last answer. */
export async function eventually(check: () => boolean, ms: number, every = 20): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (check()) return true;
    if (Date.now() >= deadline) return false;
    await sleep(every);
  }
}

/**
 * Whether `pid` names a live process. `process.kill(pid, 0)` throwing ESRCH means gone; a
 * zombie (exited, not yet reaped by whoever adopted it) answers kill(0) but is dead too.
 */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ESRCH") return false;
    throw error;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // pid (comm) STATE ...; comm may hold spaces and parentheses, so read after the last ")".
    const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
    return state !== "Z" && state !== "X";
  } catch {
    return false; // /proc entry vanished between the two checks
  }
}

/** Kills a process (and its group when it leads one), ignoring "already gone". */
export function forceKill(pid: number | undefined, group = false): void {
  if (!pid) return;
  for (const target of group ? [-pid, pid] : [pid]) {
    try {
      process.kill(target, "SIGKILL");
    } catch {
      // ESRCH: already gone.
    }
  }
}

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonMessage = { [key: string]: Json };

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/**
 * A child process spoken to in raw newline-delimited JSON. Every stdout line is recorded;
 * lines that are not JSON land in `badLines` (the stdio transport forbids them).
 */
export class LineProcess {
  readonly child: ChildProcess;
  readonly lines: string[] = [];
  readonly values: Json[] = [];
  readonly badLines: string[] = [];
  readonly exited: Promise<Exit>;
  exit: Exit | undefined;
  private stderrText = "";
  private buffered = "";
  private waiters = new Set<() => void>();

  constructor(command: string, args: string[], options: { env?: NodeJS.ProcessEnv; detached?: boolean } = {}) {
    this.child = spawn(command, args, {
      stdio: ["pipe", "pipe", "pipe"],
      env: options.env ?? process.env,
      detached: options.detached ?? false,
    });
    this.child.stdin?.on("error", () => {}); // EPIPE after the child exits
    this.child.stdout?.setEncoding("utf8");
    this.child.stdout?.on("data", (chunk: string) => {
      this.buffered += chunk;
      let nl = this.buffered.indexOf("\n");
      while (nl !== -1) {
        const line = this.buffered.slice(0, nl);
        this.buffered = this.buffered.slice(nl + 1);
        this.lines.push(line);
        try {
          this.values.push(JSON.parse(line) as Json);
        } catch {
          this.badLines.push(line);
        }
        nl = this.buffered.indexOf("\n");
      }
      this.wake();
    });
    this.child.stderr?.setEncoding("utf8");
    this.child.stderr?.on("data", (chunk: string) => {
      this.stderrText += chunk;
      this.wake();
    });
    this.exited = new Promise((resolve) => {
      this.child.once("close", (code, signal) => {
        this.exit = { code, signal };
        this.wake();
        resolve(this.exit);
      });
      this.child.once("error", (error) => {
        this.stderrText += `spawn error: ${error.message}`;
        this.exit = { code: null, signal: null };
        this.wake();
        resolve(this.exit);
      });
    });
  }

  get pid(): number {
    if (this.child.pid === undefined) throw new Error("The process did not start");
    return this.child.pid;
  }

  get stderr(): string {
    return this.stderrText;
  }

  /** Stdout content after the last newline (a message without its terminator). */
  get partial(): string {
    return this.buffered;
  }

  /** JSON-RPC messages (objects) received so far; batches stay arrays in `values`. */
  get messages(): JsonMessage[] {
    return this.values.filter((v): v is JsonMessage => typeof v === "object" && v !== null && !Array.isArray(v));
  }

  write(raw: string | Buffer): void {
    this.child.stdin?.write(raw);
  }

  send(message: unknown): void {
    this.write(`${JSON.stringify(message)}\n`);
  }

  endInput(): void {
    this.child.stdin?.end();
  }

  /** Waits (bounded) for a stdout value that satisfies `match`, received at any time. */
  async waitFor<T extends Json>(match: (value: Json) => value is T, ms: number, what: string): Promise<T>;
  async waitFor(match: (value: Json) => boolean, ms: number, what: string): Promise<Json>;
  async waitFor(match: (value: Json) => boolean, ms: number, what: string): Promise<Json> {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = this.values.find(match);
      if (found !== undefined) return found;
      if (this.exit) throw new Error(`Process exited (${JSON.stringify(this.exit)}) before ${what}${this.context()}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`Timed out after ${ms} ms waiting for ${what}${this.context()}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, left);
        function done() {
          clearTimeout(timer);
          resolve();
        }
        this.waiters.add(done);
      });
    }
  }

  /** The response (object) whose id is `id`. */
  response(id: Json, ms = 5000): Promise<JsonMessage> {
    return this.waitFor(
      (v): v is JsonMessage => isObject(v) && "id" in v && v.id === id && ("result" in v || "error" in v),
      ms,
      `the response to id ${JSON.stringify(id)}`,
    );
  }

  /** Sends a request and waits for its response. */
  request(id: Json, method: string, params?: JsonMessage, ms = 5000): Promise<JsonMessage> {
    this.send(params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params });
    return this.response(id, ms);
  }

  /** The initialize handshake, then notifications/initialized. */
  async initialize(protocolVersion = "2025-11-25", id: Json = "init"): Promise<JsonMessage> {
    const response = await this.request(id, "initialize", {
      protocolVersion,
      capabilities: {},
      clientInfo: { name: "raw-test", version: "0.0.0" },
    });
    this.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    return response;
  }

  /** Waits (bounded) for the process to exit. */
  waitExit(ms: number): Promise<Exit> {
    return within(this.exited, ms, `process ${this.child.pid} to exit${this.context()}`);
  }

  kill(): void {
    forceKill(this.child.pid);
  }

  private context(): string {
    const tail = (s: string) => (s.length > 800 ? `…${s.slice(-800)}` : s);
    return `\n  stdout lines: ${tail(this.lines.join("\n"))}\n  stderr: ${tail(this.stderrText)}`;
  }

  private wake(): void {
    const waiters = [...this.waiters];
    this.waiters.clear();
    for (const wake of waiters) wake();
  }
}

export const isObject = (v: unknown): v is JsonMessage => typeof v === "object" && v !== null && !Array.isArray(v);

/** Tracks the processes a test file starts so that afterEach can kill whatever is left. */
export class ProcessPool {
  private readonly procs = new Set<LineProcess>();
  private readonly pids = new Set<{ pid: number; group: boolean }>();

  spawn(command: string, args: string[], options?: { env?: NodeJS.ProcessEnv; detached?: boolean }): LineProcess {
    const proc = new LineProcess(command, args, options);
    this.procs.add(proc);
    if (proc.child.pid) this.pids.add({ pid: proc.child.pid, group: options?.detached ?? false });
    return proc;
  }

  /** Remembers a pid (or a process group when `group`) to kill at cleanup. */
  track(pid: number | undefined, group = false): void {
    if (pid) this.pids.add({ pid, group });
  }

  async cleanup(): Promise<void> {
    for (const { pid, group } of this.pids) forceKill(pid, group);
    this.pids.clear();
    const waits = [...this.procs].map((p) => within(p.exited, 3000, "a killed process to exit").catch(() => undefined));
    this.procs.clear();
    await Promise.all(waits);
  }
}
