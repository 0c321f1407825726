import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { connect as connectTcp } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client, type ClientOptions } from "mcpkit/client";
import { streamableHttpClientTransport } from "mcpkit/http-client";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, MCPKIT_BIN } from "../interop/helpers.js";

// `mcpkit serve` stops on SIGTERM and SIGINT: it stops accepting, fails its running tasks,
// answers its running requests with an error that says why, closes every listener (the
// GitHub sign-in's too), and exits 0 within --shutdown-timeout (default 10 s); past the
// deadline it exits 1, and a second signal exits at once. Real processes, real ports.

const FIXTURE = fileURLToPath(new URL("./fixtures/stuck-shutdown.mjs", import.meta.url));
const home = mkdtempSync(join(tmpdir(), "mcpkit-shutdown-home-"));
const running: ChildProcess[] = [];
const clients: Client[] = [];

beforeAll(() => assertBuilt());
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close().catch(() => undefined);
  for (const child of running.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

interface Served {
  child: ChildProcess;
  port: number;
  url: string;
  stderr(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
}

/** `node args…`, resolved once it prints `ready` (a pattern on stderr); the port it names, if any. */
async function start(args: string[], ready: RegExp, env: Record<string, string> = {}): Promise<Served> {
  const child = spawn(process.execPath, args, {
    env: { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, ".config"), ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  running.push(child);
  let stderr = "";
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal, at: Date.now() })),
  );
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not ready in 20 s:\n${stderr}`)), 20_000);
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = ready.exec(stderr);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1] ?? 0));
      }
    });
    exited.then(() => reject(new Error(`exited before it was ready:\n${stderr}`)));
  });
  return { child, port, url: `http://127.0.0.1:${port}/mcp`, stderr: () => stderr, exited };
}

const SERVING = /serving MCP on http:\/\/127\.0\.0\.1:(\d+)\/mcp/;
const serve = (name: string, extra: string[] = [], env: Record<string, string> = {}) =>
  start([MCPKIT_BIN, "serve", name, "--port", "0", ...extra], SERVING, env);

async function client(url: string, options: Partial<ClientOptions> = {}): Promise<Client> {
  const c = new Client({ name: "shutdown-test", version: "1", protocolVersion: "2025-11-25", ...options });
  await c.connect(streamableHttpClientTransport(url));
  clients.push(c);
  return c;
}

/** Whether something accepts connections on the port now. */
const accepting = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connectTcp(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });

/** What a promise settles with, as an outcome to compare. */
const outcome = (p: Promise<unknown>) =>
  p.then(
    (value) => ({ value }),
    (error: { message?: string }) => ({ error: String(error?.message ?? error) }),
  );

describe("every serve server stops on a signal, closes its port and exits 0 in time", () => {
  const servers: [string, string[]][] = [
    ["workspace", ["--root", home]],
    ["everything", []],
    ["weather", []],
    ["github", []],
    ["proxy", ["--", process.execPath, MCPKIT_BIN, "serve", "everything", "--stdio"]],
  ];
  for (const [name, extra] of servers) {
    for (const signal of ["SIGTERM", "SIGINT"] as const) {
      it(`${name}, ${signal}`, async () => {
        const served = await serve(name, extra);
        const c = await client(served.url);
        expect((await c.listTools()).tools.length).toBeGreaterThan(0);
        const sent = Date.now();
        served.child.kill(signal);
        const exit = await served.exited;
        expect(exit).toMatchObject({ code: 0, signal: null });
        expect(exit.at - sent).toBeLessThan(5000);
        expect(served.stderr()).toContain(`mcpkit: ${signal}: stopping (at most 10 s; a second signal exits at once)`);
        expect(served.stderr()).toContain("mcpkit: stopped");
        expect(await accepting(served.port)).toBe(false);
      }, 30_000);
    }
  }
});

describe("what is running when the signal comes", () => {
  it("a running request is answered with the shutdown error; a running task fails and its waiter is told", async () => {
    const served = await serve("everything");
    const legacy = await client(served.url);
    let progressed!: () => void;
    const started = new Promise<void>((resolve) => {
      progressed = resolve;
    });
    const request = outcome(legacy.callTool("test_slow", { steps: 100, ms: 200 }, { onprogress: () => progressed() }));
    const statuses: unknown[] = [];
    let failed!: () => void;
    const told = new Promise<void>((resolve) => {
      failed = resolve;
    });
    legacy.on("notifications/tasks/status", (params) => {
      statuses.push(params);
      if ((params as { status?: string }).status === "failed") failed();
    });
    const { task } = await legacy.callToolAsTask("slow_compute", { seconds: 60, label: "long" });
    expect(task).toBeDefined();
    await started;
    served.child.kill("SIGTERM");
    expect(await request).toEqual({ error: expect.stringContaining("The server is shutting down") });
    await told;
    expect(statuses.at(-1)).toMatchObject({
      taskId: task?.taskId,
      status: "failed",
      statusMessage: "The server shut down before the task finished",
    });
    expect(await served.exited).toMatchObject({ code: 0 });
  }, 30_000);

  it("github: a sign-in waiting for the browser ends, and its 127.0.0.1 listener closes with the process", async () => {
    const served = await serve("github", ["--allow-write"], {
      GITHUB_OAUTH_CLIENT_ID: "shutdown-test-client",
      GITHUB_OAUTH_CLIENT_SECRET: "shutdown-test-secret",
      GITHUB_TOKEN: "",
      GH_TOKEN: "",
    });
    let signInUrl!: (url: URL) => void;
    const asked = new Promise<URL>((resolve) => {
      signInUrl = resolve;
    });
    const c = await client(served.url, {
      capabilities: { elicitation: { url: {} } },
      elicitation: (params) => {
        signInUrl(new URL(String((params as { url?: string }).url)));
        return new Promise(() => {}); // the user never comes back
      },
    });
    const call = outcome(c.callTool("create_issue", { owner: "o", repo: "r", title: "t" }));
    const listener = Number(new URL((await asked).searchParams.get("redirect_uri") as string).port);
    expect(await accepting(listener)).toBe(true);
    served.child.kill("SIGTERM");
    expect(await served.exited).toMatchObject({ code: 0 });
    expect(await accepting(listener)).toBe(false);
    // The tool's wait for the user ended with the server: answered, not left hanging.
    expect(JSON.stringify(await call)).toMatch(/shutting down|cancelled|sign-in/i);
  }, 30_000);
});

describe("the deadline and the second signal", () => {
  // A fixture holds the shutdown up forever, as a server stuck on something would.
  const stuck = (timeout: string) => start([FIXTURE, timeout], /ready/);

  it("a shutdown past --shutdown-timeout exits 1 and says so", async () => {
    const served = await stuck("300ms");
    served.child.kill("SIGTERM");
    const exit = await served.exited;
    expect(exit).toMatchObject({ code: 1 });
    expect(served.stderr()).toContain("mcpkit: still stopping after 0.3 s: exiting now");
  }, 30_000);

  it("a second signal exits at once, with 128 + its number", async () => {
    const served = await stuck("60s");
    served.child.kill("SIGINT");
    // The first signal is heard once the server says it is stopping.
    await new Promise<void>((resolve) => {
      const said = () => served.stderr().includes("stopping");
      if (said()) resolve();
      else served.child.stderr?.on("data", () => said() && resolve());
    });
    const sent = Date.now();
    served.child.kill("SIGTERM");
    const exit = await served.exited;
    expect(exit).toMatchObject({ code: 143 });
    expect(exit.at - sent).toBeLessThan(2000);
    expect(served.stderr()).toContain("mcpkit: SIGTERM again: exiting now");
  }, 30_000);

  it("--shutdown-timeout takes a duration and refuses anything else", async () => {
    const child = spawn(process.execPath, [MCPKIT_BIN, "serve", "everything", "--shutdown-timeout", "soon"], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    running.push(child);
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    expect(code).toBe(2);
    expect(stderr).toContain('--shutdown-timeout takes a duration such as 90 (seconds), 90s, 15m or 2h, not "soon"');
  });
});
