import { spawn } from "node:child_process";
import { WorkspaceError } from "../errors.js";
import { LIMITS } from "../limits.js";

/**
 * Settings that keep a read-only git command from running programs a repository's own
 * config names (core.fsmonitor, a pager, signature verification), from prompting, and
 * from taking the index lock (GIT_OPTIONAL_LOCKS=0: `git status` otherwise rewrites it).
 */
const SAFE_CONFIG = [
  "--no-pager",
  "-c",
  "core.fsmonitor=false",
  "-c",
  "core.pager=cat",
  "-c",
  "color.ui=false",
  "-c",
  "log.showSignature=false",
  "-c",
  "core.quotePath=false",
];

/** The environment without GIT_* variables that could point git elsewhere (GIT_DIR, GIT_INDEX_FILE…). */
function gitEnvironment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith("GIT_")) env[key] = value;
  return { ...env, GIT_OPTIONAL_LOCKS: "0", GIT_TERMINAL_PROMPT: "0", GIT_PAGER: "cat", LC_ALL: "C" };
}

export interface GitOutput {
  stdout: string;
  /** The output went past the limit and was cut. */
  truncated: boolean;
}

/**
 * Runs `git <args>` in `cwd` without a shell, with a timeout and an output limit; the
 * command is killed when it passes either, or when `signal` aborts.
 */
export function runGit(
  cwd: string,
  args: readonly string[],
  options: { signal?: AbortSignal; maxBytes?: number; timeoutMs?: number } = {},
): Promise<GitOutput> {
  const maxBytes = options.maxBytes ?? LIMITS.gitOutputBytes;
  const timeoutMs = options.timeoutMs ?? LIMITS.gitTimeoutMs;
  return new Promise((resolve, reject) => {
    const child = spawn("git", [...SAFE_CONFIG, ...args], {
      cwd,
      env: gitEnvironment(),
      stdio: ["ignore", "pipe", "pipe"],
      timeout: timeoutMs,
      ...(options.signal && { signal: options.signal }),
    });
    const out: Buffer[] = [];
    let size = 0;
    let truncated = false;
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      if (truncated) return;
      const room = maxBytes - size;
      if (chunk.length > room) {
        out.push(chunk.subarray(0, room));
        size = maxBytes;
        truncated = true;
        child.kill();
        return;
      }
      out.push(chunk);
      size += chunk.length;
    });
    child.stderr.on("data", (chunk: Buffer) => {
      if (stderr.length < 4096) stderr += chunk.toString("utf8");
    });
    child.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") reject(new WorkspaceError("git is not installed (or not on PATH)"));
      else if (error.name === "AbortError") reject(error);
      else reject(new WorkspaceError(`git ${args[0]} failed: ${error.message}`));
    });
    child.on("close", (code, signal) => {
      const stdout = Buffer.concat(out).toString("utf8");
      if (truncated) return resolve({ stdout, truncated });
      if (code === 0) return resolve({ stdout, truncated: false });
      if (signal) return reject(new WorkspaceError(`git ${args[0]} was stopped after ${timeoutMs} ms`));
      reject(new WorkspaceError(`git ${args[0]} failed: ${stderr.trim() || `exit code ${code}`}`));
    });
  });
}
