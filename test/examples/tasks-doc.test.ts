import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";

// docs/tasks.md quotes its example from examples/tasks/, and the example runs as the guide
// says: the server and the client are separate processes, the client three visits.

const ROOT = new URL("../../", import.meta.url);
const DOC = readFileSync(new URL("docs/tasks.md", ROOT), "utf8");
const QUOTES = [...DOC.matchAll(/<!-- quoted from (\S+) -->\n```\w*\n([\s\S]*?)```/g)].map((m) => ({
  file: m[1] as string,
  text: m[2] as string,
}));
const example = (name: string) => fileURLToPath(new URL(`examples/tasks/${name}`, ROOT));

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
});

/** Runs node on `file`; resolves once `ready` matches its stdout (or it exits). */
function node(file: string, args: string[], env: Record<string, string>, ready?: RegExp) {
  const child = spawn(process.execPath, [file, ...args], {
    cwd: fileURLToPath(ROOT),
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let stdout = "";
  let stderr = "";
  child.stdout?.setEncoding("utf8").on("data", (d: string) => {
    stdout += d;
  });
  child.stderr?.setEncoding("utf8").on("data", (d: string) => {
    stderr += d;
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const matched = new Promise<RegExpExecArray>((resolve, reject) => {
    if (!ready) return;
    child.stdout?.on("data", () => {
      const m = ready.exec(stdout);
      if (m) resolve(m);
    });
    void exited.then(() => reject(new Error(`${file} exited before printing ${ready}: ${stderr}`)));
  });
  return {
    matched,
    exited,
    get stdout() {
      return stdout;
    },
    get stderr() {
      return stderr;
    },
  };
}

describe("docs/tasks.md", () => {
  it("quotes both example files verbatim", () => {
    expect(QUOTES.map((q) => q.file).sort()).toEqual([
      "examples/tasks/deploy-client.mjs",
      "examples/tasks/deploy-server.mjs",
    ]);
    for (const { file, text } of QUOTES) expect(readFileSync(new URL(file, ROOT), "utf8"), file).toContain(text);
  });

  it("runs the example: the task asks on the second visit and its result waits for the third", async () => {
    const server = node(example("deploy-server.mjs"), [], { PORT: "0" }, /serving MCP on (http:\/\/\S+)/);
    const [, url] = await server.matched;
    const client = node(example("deploy-client.mjs"), [url as string], {});
    expect(await client.exited, client.stderr).toBe(0);
    const lines = client.stdout.trim().split("\n");
    expect(lines[0]).toMatch(/^started task [0-9a-f-]{36}$/);
    expect(lines).toContain("working: compile billing");
    expect(lines).toContain("asked: Deploy billing to production? -> yes");
    const asked = lines.indexOf("asked: Deploy billing to production? -> yes");
    expect(lines.slice(0, asked)).toContain("input_required: package billing");
    expect(lines.at(-1)).toBe("Deployed billing");
  }, 30_000);
});
