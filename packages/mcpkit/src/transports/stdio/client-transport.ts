import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import type { Readable } from "node:stream";
import type { JsonRpcMessage } from "../../jsonrpc/types.js";
import type { Transport, TransportSink } from "../transport.js";
import { DEFAULT_MAX_MESSAGE_BYTES } from "../transport.js";
import { createLineReader } from "./line-reader.js";
import { createLineWriter } from "./line-writer.js";
import { atParentExit } from "./parent-exit.js";

/** How long to wait for a dead server's stdout to drain when a grandchild holds it open. */
const STDOUT_GRACE_MS = 200;

const describe = (exit: { code: number | null; signal: NodeJS.Signals | null }) =>
  exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;

/** Why the command did not start, in words a person can act on; Node's own message kept. */
function startFailure(command: string, cwd: string | undefined, error: NodeJS.ErrnoException): Error {
  // spawn says ENOENT both for a missing command and for a missing working directory.
  const why =
    error.code === "ENOENT"
      ? cwd !== undefined && !existsSync(cwd)
        ? `its working directory ${cwd} does not exist`
        : /[\\/]/.test(command)
          ? "no such file"
          : "not found on PATH (is it installed?)"
      : error.code === "EACCES"
        ? "permission denied: is it an executable file?"
        : undefined;
  return new Error(`Could not start ${command}: ${why ? `${why} (${error.message})` : error.message}`);
}

/** Variables a server inherits by default; everything else must be passed explicitly. */
export const DEFAULT_INHERITED_ENV =
  process.platform === "win32"
    ? [
        "APPDATA",
        "HOMEDRIVE",
        "HOMEPATH",
        "LOCALAPPDATA",
        "PATH",
        "PROCESSOR_ARCHITECTURE",
        "SYSTEMDRIVE",
        "SYSTEMROOT",
        "TEMP",
        "USERNAME",
        "USERPROFILE",
        "PROGRAMFILES",
      ]
    : ["HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER", "LANG", "TMPDIR"];

export interface StdioClientOptions {
  command: string;
  args?: string[];
  cwd?: string;
  /** Added to the inherited allowlist (and overriding it). */
  env?: Record<string, string>;
  /** Names of this process's variables the server inherits (default DEFAULT_INHERITED_ENV). */
  inheritEnv?: readonly string[];
  /** The server's stderr: shown ("inherit", default), readable on `transport.stderr` ("pipe"), or dropped. */
  stderr?: "inherit" | "pipe" | "ignore";
  maxMessageBytes?: number;
  /** How long to wait after ending stdin before SIGTERM, and after SIGTERM before SIGKILL (default 2000 ms each). */
  killTimeoutMs?: number;
  /**
   * Called with each line the server writes to stdout that is not JSON (transports §stdio:
   * stdout carries MCP messages only; a server logs to stderr). It is answered as the
   * protocol says (a parse error), and otherwise lost: this is the place to show it.
   */
  onInvalidLine?: (line: string) => void;
}

export interface StdioClientTransport extends Transport {
  /** The server's stderr when `stderr: "pipe"`. */
  readonly stderr: Readable | null;
  /** The child's pid once started. */
  readonly pid: number | undefined;
  /** Exit code and signal once the server has exited. */
  readonly exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  /** transports/stdio §Backward Compatibility: a Client probes the era with server/discover. */
  readonly binding: "stdio";
}

/**
 * The client side of transports §stdio: spawns the server in its own process group with
 * a minimal environment, and on close ends stdin, then SIGTERM, then SIGKILL to the group.
 */
export function stdioClientTransport(options: StdioClientOptions): StdioClientTransport {
  let child: ChildProcess | undefined;
  let sink: TransportSink | undefined;
  let closing = false;
  let closed = false;
  let exit: StdioClientTransport["exit"];
  let writer: ReturnType<typeof createLineWriter> | undefined;
  let exitedResolve!: () => void;
  const exited = new Promise<void>((resolve) => {
    exitedResolve = resolve;
  });
  const killTimeout = options.killTimeoutMs ?? 2000;
  const posix = process.platform !== "win32";

  const signalGroup = (signal: NodeJS.Signals) => {
    if (!child?.pid) return;
    try {
      if (posix) process.kill(-child.pid, signal);
      else child.kill(signal);
    } catch {
      // ESRCH: nothing left to signal.
    }
  };
  let forgetParentExit: (() => void) | undefined;
  // The server is gone: its group (children it started) gets SIGTERM, then SIGKILL.
  const reapGroup = () => {
    signalGroup("SIGTERM");
    setTimeout(() => signalGroup("SIGKILL"), killTimeout).unref();
  };

  const finish = (reason?: Error) => {
    if (closed) return;
    closed = true;
    forgetParentExit?.();
    sink?.close(reason);
  };

  const transport: StdioClientTransport = {
    binding: "stdio",
    get stderr() {
      return child?.stderr ?? null;
    },
    get pid() {
      return child?.pid;
    },
    get exit() {
      return exit;
    },

    start(s) {
      sink = s;
      const env: Record<string, string> = {};
      for (const name of options.inheritEnv ?? DEFAULT_INHERITED_ENV) {
        const value = process.env[name];
        if (value !== undefined && !value.startsWith("()")) env[name] = value;
      }
      Object.assign(env, options.env);
      return new Promise<void>((resolve, reject) => {
        const proc = spawn(options.command, options.args ?? [], {
          cwd: options.cwd,
          env,
          stdio: ["pipe", "pipe", options.stderr ?? "inherit"],
          detached: posix,
          windowsHide: true,
        });
        child = proc;
        if (proc.stdin) writer = createLineWriter(proc.stdin);
        const push = createLineReader(s, options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES, options.onInvalidLine);
        let exitReason: Error | undefined;
        proc.stdout?.on("data", push);
        // EPIPE: the server stopped reading, so nothing sent will ever be answered. If it is
        // exiting, its exit (which comes shortly) is the better reason to report.
        proc.stdin?.on("error", (error) => {
          proc.stdin?.destroy();
          const reason = new Error(`The server stopped reading its stdin (${error.message})`);
          setTimeout(() => finish(exitReason ?? reason), STDOUT_GRACE_MS).unref();
        });
        proc.once("spawn", () => {
          if (!closed) forgetParentExit = atParentExit(() => signalGroup("SIGKILL"));
          resolve();
        });
        proc.once("error", (error) => {
          const failure = startFailure(options.command, options.cwd, error);
          exitedResolve();
          finish(failure);
          reject(failure);
        });
        // Finish on "close" (stdout drained, so no last message is lost), or shortly after
        // "exit" when a grandchild still holds the server's stdout open.
        const exitedWith = (code: number | null, signal: NodeJS.Signals | null) => {
          if (exit) return;
          exit = { code, signal };
          exitedResolve();
          reapGroup();
          exitReason = closing ? undefined : new Error(`Server process ${describe(exit)}`);
          setTimeout(() => finish(exitReason), STDOUT_GRACE_MS).unref();
        };
        proc.once("exit", exitedWith);
        proc.once("close", (code, signal) => {
          exitedWith(code, signal);
          finish(exitReason);
        });
      });
    },

    send(message: JsonRpcMessage | JsonRpcMessage[]) {
      if (closed || !child?.stdin?.writable) throw new Error("Server process is not running");
      writer?.write(JSON.stringify(message));
    },

    async close() {
      if (closing || !child) return finish();
      closing = true;
      if (exit === undefined) {
        writer?.flush();
        child.stdin?.end();
        const step = (ms: number) =>
          Promise.race([exited.then(() => true), new Promise<boolean>((r) => setTimeout(r, ms, false).unref())]);
        if (!(await step(killTimeout))) {
          signalGroup("SIGTERM");
          if (!(await step(killTimeout))) {
            signalGroup("SIGKILL");
            await exited;
          }
        }
      }
      finish();
    },
  };
  return transport;
}
