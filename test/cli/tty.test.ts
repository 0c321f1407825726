import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { CLI_BIN, eventually, forceKill, REPO_ROOT, within } from "../../packages/mcpkit/test/stdio/helpers.js";

// `mcpkit serve everything` started by a person at a terminal: stdin is a TTY. util-linux
// `script` gives the command a pseudo-terminal; its stdout and stderr go to files so the test
// can tell them apart, and Ctrl+D (0x04) written to the terminal is the person quitting.

let dir: string | undefined;
let script: ChildProcess | undefined;
let scriptBin = "";

beforeAll(() => {
  scriptBin = execFileSync("sh", ["-c", "command -v script"], { encoding: "utf8" }).trim();
  if (!scriptBin) throw new Error("the `script` binary (util-linux) is needed: apt-get install util-linux");
  if (!existsSync(`${REPO_ROOT}packages/cli/dist/main.js`))
    throw new Error("packages/cli/dist is missing: run `npx tsc -b packages/mcpkit packages/cli` first");
});

afterEach(() => {
  // Killing `script` closes the terminal; the server then gets SIGHUP.
  forceKill(script?.pid);
  script = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

const quote = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;

/** Runs `command` on a pseudo-terminal with stdout/stderr in files; records its exit code. */
function onTerminal(args: string[]) {
  const tmp = mkdtempSync(join(tmpdir(), "mcpkit-tty-"));
  dir = tmp;
  const file = (name: string) => join(tmp, name);
  const command = [process.execPath, ...args].map(quote).join(" ");
  const line = `${command} >${quote(file("out"))} 2>${quote(file("err"))}; echo $? >${quote(file("rc"))}`;
  const child = spawn(scriptBin, ["-q", "-e", "-c", line, "/dev/null"], {
    stdio: ["pipe", "ignore", "ignore"],
    env: { ...process.env, SHELL: "/bin/sh" },
  });
  child.stdin?.on("error", () => {});
  script = child;
  const exited = new Promise<number | null>((resolve) => child.once("close", (code) => resolve(code)));
  const read = (name: string) => (existsSync(file(name)) ? readFileSync(file(name), "utf8") : "");
  return { child, exited, read };
}

describe("mcpkit serve on a terminal", () => {
  it("explains itself on stderr, keeps stdout for MCP, and quits on Ctrl+D", async () => {
    const { child, exited, read } = onTerminal([CLI_BIN, "serve", "everything"]);
    expect(await eventually(() => read("err").includes("Ctrl+D"), 8000)).toBe(true);
    const stderr = read("err");
    expect(stderr).toContain("MCP server");
    expect(stderr).toContain("mcpkit serve everything");
    expect(stderr).toContain("--stdio");

    // It still speaks MCP on the terminal: a ping typed in is answered on stdout.
    child.stdin?.write(`${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" })}\n`);
    expect(await eventually(() => read("out").includes("\n"), 5000)).toBe(true);
    expect(read("out")).toBe(`${JSON.stringify({ jsonrpc: "2.0", id: 1, result: {} })}\n`);

    child.stdin?.write("\x04");
    child.stdin?.end();
    await within(exited, 5000, "the terminal session to end after Ctrl+D");
    expect(read("rc").trim()).toBe("0");
  });

  it("prints no explanation when stdin is not a terminal", async () => {
    const child = spawn(process.execPath, [CLI_BIN, "serve", "everything", "--stdio"], {
      stdio: ["pipe", "pipe", "pipe"],
    });
    script = child;
    let stderr = "";
    let stdout = "";
    child.stderr?.on("data", (chunk) => {
      stderr += chunk;
    });
    child.stdout?.on("data", (chunk) => {
      stdout += chunk;
    });
    const exited = new Promise<number | null>((resolve) => child.once("close", (code) => resolve(code)));
    child.stdin?.end();
    expect(await within(exited, 5000, "the server to exit on stdin EOF")).toBe(0);
    expect(stderr).toBe("");
    expect(stdout).toBe("");
  });
});
