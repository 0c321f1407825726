import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { CLI_BIN, REPO_ROOT, until as waitUntil, within } from "../../packages/mcpkit/test/stdio/helpers.js";

/**
 * Drives the built `mcpkit` binary as a person or a script would: real processes, every
 * wait bounded, every process tracked so afterEach can stop what a failed test left.
 * Everything runs on the Node that runs the tests (process.execPath), servers included.
 */

export { CLI_BIN, REPO_ROOT };

/** `mcpkit serve everything` over stdio, as the words after `--`. */
export const MCPKIT_SERVER = [process.execPath, CLI_BIN, "serve", "everything", "--stdio"];

/** The official @modelcontextprotocol/server-everything (a dev dependency) over stdio. */
export const OFFICIAL_SERVER = (() => {
  const manifest = createRequire(import.meta.url).resolve("@modelcontextprotocol/server-everything/package.json");
  const { bin } = JSON.parse(readFileSync(manifest, "utf8")) as { bin: Record<string, string> };
  return [process.execPath, join(dirname(manifest), Object.values(bin)[0] as string), "stdio"];
})();

export function requireBuild(): void {
  if (!existsSync(`${REPO_ROOT}packages/cli/dist/main.js`))
    throw new Error("packages/cli/dist is missing: run `npx tsc -b packages/mcpkit packages/cli` first");
}

const live = new Set<ChildProcess>();
const tempDirs = new Set<string>();

/**
 * Stops whatever a test left running: SIGTERM first, which `mcpkit call` answers by
 * shutting its stdio server down, then SIGKILL.
 */
export async function stopAll(): Promise<void> {
  const children = [...live];
  live.clear();
  await Promise.all(
    children.map(async (child) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const closed = new Promise((resolve) => child.once("close", resolve));
      child.kill("SIGTERM");
      await within(closed, 3000, "a process to stop").catch(() => child.kill("SIGKILL"));
    }),
  );
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  tempDirs.clear();
}

/** A fresh folder, removed by stopAll. */
export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "mcpkit-call-test-"));
  tempDirs.add(dir);
  return dir;
}

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface Running {
  child: ChildProcess;
  /** Everything written so far. */
  readonly stdout: string;
  readonly stderr: string;
  /** Settles when the process has exited. */
  done: Promise<Run>;
}

/** Starts `mcpkit ARGS…` with stdin, stdout and stderr piped (so nothing is a terminal). */
export function start(args: string[]): Running {
  const child = spawn(process.execPath, [CLI_BIN, ...args], {
    cwd: REPO_ROOT,
    stdio: ["pipe", "pipe", "pipe"],
    env: { ...process.env, NO_COLOR: "1" },
  });
  live.add(child);
  child.stdin?.on("error", () => {});
  let stdout = "";
  let stderr = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
  });
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const done = new Promise<Run>((resolve) => {
    child.once("close", (code) => {
      live.delete(child);
      resolve({ code, stdout, stderr });
    });
  });
  return {
    child,
    get stdout() {
      return stdout;
    },
    get stderr() {
      return stderr;
    },
    done,
  };
}

/** Runs `mcpkit ARGS…` to the end, with stdin closed. */
export function mcpkit(args: string[], ms = 10_000): Promise<Run> {
  const running = start(args);
  running.child.stdin?.end();
  return within(running.done, ms, `mcpkit ${args.join(" ")}`);
}

/** Waits until `check` passes (the library tests' `until`); throws with `what` after `ms`. */
export async function until(check: () => boolean, ms: number, what: string): Promise<void> {
  await waitUntil(check, what, ms);
}

/**
 * `mcpkit serve everything --port 0`: resolves with its /mcp URL once it prints it. It
 * outlives each test (stopAll leaves it), so the caller stops it in afterAll.
 */
export async function serveHttp(): Promise<{ url: string; server: Running }> {
  const server = start(["serve", "everything", "--port", "0"]);
  live.delete(server.child);
  await until(() => /serving MCP on (http:\/\/\S+\/mcp)/.test(server.stderr), 8000, "serve to print its URL");
  const url = /serving MCP on (http:\/\/\S+\/mcp)/.exec(server.stderr)?.[1] as string;
  return { url, server };
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI escape sequences start with ESC
const ANSI = /\x1b\[[0-9;?]*[ -/]*[@-~]/g;

export const KEY = { enter: "\r", down: "\x1b[B", up: "\x1b[A", space: " ", ctrlC: "\x03" };

const quote = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;

/**
 * `mcpkit ARGS…` on a pseudo-terminal (util-linux `script`), as a person runs it: stdin and
 * stderr are the terminal, where the prompts and the progress bar are drawn; stdout goes
 * to a file so the result can be read apart from them. `expect` waits for text to appear
 * on the terminal after everything already matched; `type` sends keys.
 */
export class Terminal {
  readonly child: ChildProcess;
  readonly done: Promise<void>;
  private screen = "";
  private bytes = "";
  private seen = 0;
  private readonly dir: string;

  constructor(args: string[]) {
    const script = execFileSync("sh", ["-c", "command -v script"], { encoding: "utf8" }).trim();
    this.dir = mkdtempSync(join(tmpdir(), "mcpkit-call-tty-"));
    tempDirs.add(this.dir);
    const command = [process.execPath, CLI_BIN, ...args].map(quote).join(" ");
    const line = `${command} >${quote(this.file("out"))}; echo $? >${quote(this.file("rc"))}`;
    this.child = spawn(script, ["-q", "-e", "-c", line, "/dev/null"], {
      cwd: REPO_ROOT,
      stdio: ["pipe", "pipe", "ignore"],
      env: { ...process.env, SHELL: "/bin/sh", TERM: "xterm-256color", NO_COLOR: "1" },
    });
    live.add(this.child);
    this.child.stdin?.on("error", () => {});
    this.child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      this.bytes += chunk;
      this.screen += chunk.replace(ANSI, "");
    });
    this.done = new Promise((resolve) =>
      this.child.once("close", () => {
        live.delete(this.child);
        resolve();
      }),
    );
  }

  private file(name: string): string {
    return join(this.dir, name);
  }

  /** The terminal's text so far, escape sequences removed. */
  get text(): string {
    return this.screen;
  }

  /** What was written to the terminal, escape sequences included. */
  get raw(): string {
    return this.bytes;
  }

  async expect(text: string, ms = 8000): Promise<void> {
    await until(() => this.screen.indexOf(text, this.seen) !== -1, ms, `"${text}" on the terminal:\n${this.screen}`);
    this.seen = this.screen.indexOf(text, this.seen) + text.length;
  }

  type(...keys: string[]): void {
    this.child.stdin?.write(keys.join(""));
  }

  /** Waits for the command to finish; its exit code and what it wrote to stdout. */
  async result(ms = 10_000): Promise<{ code: number; stdout: string }> {
    await within(this.done, ms, `the command to finish; the terminal showed:\n${this.screen}`);
    const read = (name: string) => (existsSync(this.file(name)) ? readFileSync(this.file(name), "utf8") : "");
    return { code: Number(read("rc").trim()), stdout: read("out") };
  }
}
