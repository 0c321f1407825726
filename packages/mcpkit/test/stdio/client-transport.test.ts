import { spawn } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { Client } from "../../src/client/index.js";
import { McpError } from "../../src/jsonrpc/errors.js";
import {
  type StdioClientOptions,
  type StdioClientTransport,
  stdioClientTransport,
} from "../../src/transports/stdio/index.js";
import { eventually, FIXTURES, isAlive, ProcessPool, REPO_ROOT, within } from "./helpers.js";

// The client half of transports §stdio against real child processes: the fixture server in
// ./fixtures/server.mjs runs on the built library (`npx tsc -b packages/mcpkit`).

const FIXTURE = `${FIXTURES}server.mjs`;
const pool = new ProcessPool();
const clients: Client[] = [];

afterEach(async () => {
  await Promise.all(clients.map((c) => within(c.close(), 5000, "client.close()").catch(() => undefined)));
  clients.length = 0;
  await pool.cleanup();
});

function fixtureTransport(flags: string[] = [], options: Partial<StdioClientOptions> = {}): StdioClientTransport {
  return stdioClientTransport({
    command: process.execPath,
    args: [FIXTURE, ...flags],
    stderr: "pipe",
    ...options,
  });
}

async function connectFixture(
  flags: string[] = [],
  options: Partial<StdioClientOptions> = {},
): Promise<{ client: Client; transport: StdioClientTransport }> {
  const transport = fixtureTransport(flags, options);
  const client = new Client({ name: "stdio-test", version: "0.0.0", timeoutMs: 10_000 });
  clients.push(client);
  const connected = client.connect(transport);
  // The transport knows the pid once spawned; the group goes at cleanup whatever happens.
  connected.catch(() => undefined).finally(() => pool.track(transport.pid, true));
  await within(connected, 8000, "connect to the fixture server");
  pool.track(transport.pid, true);
  return { client, transport };
}

const textOf = (result: { content: unknown[] }): string => {
  const first = result.content[0] as { type: string; text?: string };
  expect(first.type).toBe("text");
  return first.text ?? "";
};

async function grandchild(client: Client, args: { inheritStdout?: boolean; ignoreSigterm?: boolean }) {
  const pid = Number(textOf(await client.callTool("spawn_grandchild", args)));
  expect(Number.isInteger(pid) && pid > 0).toBe(true);
  pool.track(pid);
  expect(isAlive(pid)).toBe(true);
  return pid;
}

describe("stdio client transport: the server process dies", () => {
  it("rejects the pending call promptly with the exit code, and records transport.exit", async () => {
    const { client, transport } = await connectFixture();
    const pid = transport.pid!;
    const started = Date.now();
    const call = client.callTool("exit", { code: 7 }, { timeoutMs: 15_000 });
    call.catch(() => undefined);
    const error = await within(call, 3000, "the pending call to reject").then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32000);
    expect((error as Error).message).toMatch(/exited with code 7/);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(transport.exit).toEqual({ code: 7, signal: null });
    expect(client.isConnected).toBe(false);
    expect(isAlive(pid)).toBe(false);
    // Later calls fail at once instead of hanging on a dead process.
    await expect(within(client.callTool("pid"), 1000, "a call after the exit")).rejects.toThrow(/closed/i);
  });

  it("names the signal when the server is killed by one", async () => {
    const { client, transport } = await connectFixture();
    const call = client.callTool("die_by_signal", {}, { timeoutMs: 15_000 });
    call.catch(() => undefined);
    await expect(within(call, 3000, "the pending call to reject")).rejects.toThrow(/killed by SIGKILL/);
    expect(transport.exit).toEqual({ code: null, signal: "SIGKILL" });
  });

  it("rejects the pending call promptly even when a grandchild still holds the server's stdout", async () => {
    // A server that started a helper with inherited stdio (a shell script's background job,
    // spawn with stdio "inherit") and then crashed: the pipe stays open, the server is gone.
    const { client, transport } = await connectFixture([], { killTimeoutMs: 200 });
    const serverPid = transport.pid!;
    const gpid = await grandchild(client, { inheritStdout: true });
    const call = client.callTool("exit", { code: 9 }, { timeoutMs: 15_000 });
    call.catch(() => undefined);
    const outcome = await within(call, 3000, "the pending call to reject after the server exited").then(
      () => "resolved",
      (e: unknown) => (e as Error).message,
    );
    expect(isAlive(serverPid)).toBe(false);
    expect(outcome).toMatch(/exited with code 9/);
    expect(transport.exit).toEqual({ code: 9, signal: null });
    // The straggler in the server's process group goes too.
    expect(await eventually(() => !isAlive(gpid), 1000)).toBe(true);
  });
  it("fails a call promptly when the server stopped reading stdin, instead of waiting for the timeout", async () => {
    // The server is alive and its stdout open, but nothing can be written to it any more
    // (EPIPE): a request can never be delivered, so waiting 10 s for an answer is pointless.
    const { client, transport } = await connectFixture([], { killTimeoutMs: 200 });
    // The tool closes fd 0 before it answers: the pipe has no reader from here on.
    expect(textOf(await client.callTool("close_stdin"))).toBe("stdin closed");
    const started = Date.now();
    const call = client.callTool("pid", {}, { timeoutMs: 10_000 });
    call.catch(() => undefined);
    const outcome = await within(call, 3000, "the undeliverable call to fail").then(
      () => "resolved",
      (e: unknown) => (e as Error).message,
    );
    expect(isAlive(transport.pid!)).toBe(true);
    expect(outcome).not.toMatch(/Timed out after 3000 ms/);
    expect(outcome).not.toBe("resolved");
    expect(Date.now() - started).toBeLessThan(3000);
  });
});

describe("stdio client transport: starting", () => {
  it("rejects connect with a clear message when the command does not exist (absolute path)", async () => {
    const command = "/nonexistent/mcpkit-no-such-server";
    const client = new Client({ name: "stdio-test", version: "0.0.0" });
    clients.push(client);
    const error = await within(client.connect(stdioClientTransport({ command })), 3000, "connect to fail").then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toContain(command);
    expect(error?.message).toMatch(/ENOENT/);
    expect(client.isConnected).toBe(false);
  });

  it("rejects connect with a clear message when the command is not on PATH", async () => {
    const command = "mcpkit-definitely-not-installed-server";
    const client = new Client({ name: "stdio-test", version: "0.0.0" });
    clients.push(client);
    await expect(within(client.connect(stdioClientTransport({ command })), 3000, "connect to fail")).rejects.toThrow(
      /Could not start mcpkit-definitely-not-installed-server: not found on PATH \(is it installed\?\) .*ENOENT/,
    );
  });

  it("says so when the command is there but its working directory is not", async () => {
    const client = new Client({ name: "stdio-test", version: "0.0.0" });
    clients.push(client);
    const transport = stdioClientTransport({ command: process.execPath, cwd: "/nonexistent/mcpkit-project" });
    await expect(within(client.connect(transport), 3000, "connect to fail")).rejects.toThrow(
      "its working directory /nonexistent/mcpkit-project does not exist",
    );
  });

  it("rejects connect promptly when the server exits before answering initialize", async () => {
    const client = new Client({ name: "stdio-test", version: "0.0.0", timeoutMs: 15_000 });
    clients.push(client);
    const transport = stdioClientTransport({
      command: process.execPath,
      args: ["-e", "process.exit(5)"],
      stderr: "ignore",
    });
    await expect(within(client.connect(transport), 3000, "connect to fail")).rejects.toThrow(/exited with code 5/);
    expect(transport.exit).toEqual({ code: 5, signal: null });
  });

  it("pipes the server's stderr to transport.stderr when asked", async () => {
    const transport = fixtureTransport();
    const client = new Client({ name: "stdio-test", version: "0.0.0" });
    clients.push(client);
    let stderr = "";
    const connected = client.connect(transport);
    transport.stderr?.setEncoding("utf8");
    transport.stderr?.on("data", (chunk: string) => {
      stderr += chunk;
    });
    await within(connected, 8000, "connect");
    pool.track(transport.pid, true);
    expect(await eventually(() => stderr.includes("fixture server started"), 2000)).toBe(true);
    expect(stderr).toContain(`pid ${transport.pid}`);
  });
});

describe("stdio client transport: environment", () => {
  const saved = { ...process.env };
  afterEach(() => {
    for (const name of ["MCPKIT_TEST_SECRET", "MCPKIT_TEST_FN"]) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
  });

  const serverEnv = async (options: Partial<StdioClientOptions>) => {
    const { client } = await connectFixture([], options);
    return JSON.parse(textOf(await client.callTool("env"))) as Record<string, string>;
  };

  it("passes only the default allowlist plus `env`", async () => {
    process.env.MCPKIT_TEST_SECRET = "s3cret";
    const env = await serverEnv({ env: { MCPKIT_TEST_PASSED: "yes", HOME: "/tmp/mcpkit-home-override" } });
    expect(env.MCPKIT_TEST_SECRET).toBeUndefined();
    expect(env.MCPKIT_TEST_PASSED).toBe("yes");
    // `env` overrides an inherited variable.
    expect(env.HOME).toBe("/tmp/mcpkit-home-override");
    // Allowlisted variables arrive unchanged.
    expect(env.PATH).toBe(process.env.PATH);
    // Nothing outside the allowlist and `env` leaks in (Node may add none of its own).
    const allowed = new Set([
      "HOME",
      "LOGNAME",
      "PATH",
      "SHELL",
      "TERM",
      "USER",
      "LANG",
      "TMPDIR",
      "MCPKIT_TEST_PASSED",
    ]);
    expect(Object.keys(env).filter((name) => !allowed.has(name))).toEqual([]);
  });

  it("inheritEnv replaces the allowlist; shell function exports are never passed", async () => {
    process.env.MCPKIT_TEST_SECRET = "s3cret";
    process.env.MCPKIT_TEST_FN = "() {  echo exported function; }";
    const env = await serverEnv({ inheritEnv: ["MCPKIT_TEST_SECRET", "MCPKIT_TEST_FN"] });
    expect(env.MCPKIT_TEST_SECRET).toBe("s3cret");
    expect(env.MCPKIT_TEST_FN).toBeUndefined();
    expect(env.PATH).toBeUndefined();
  });
});

describe("stdio client transport: close() and the process tree", () => {
  it("holds one exit listener of this process for any number of servers (Node warns past 10)", async () => {
    const before = process.listenerCount("exit");
    const transports = Array.from({ length: 12 }, () =>
      stdioClientTransport({ command: process.execPath, args: ["-e", "setInterval(() => {}, 1000)"] }),
    );
    const sink = { message: () => {}, invalid: () => {}, close: () => {} };
    await Promise.all(transports.map((t) => t.start(sink)));
    for (const t of transports) pool.track(t.pid, true);
    expect(process.listenerCount("exit") - before).toBe(1);
    await Promise.all(transports.map((t) => t.close()));
    expect(process.listenerCount("exit")).toBe(before);
  });

  it("kills every server's group when this process exits, without a warning for many", async () => {
    const built = `${REPO_ROOT}packages/mcpkit/dist/transports/stdio/index.js`;
    const parent = spawn(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `import { stdioClientTransport } from ${JSON.stringify(built)};
const sink = { message() {}, invalid() {}, close() {} };
const ts = Array.from({ length: 12 }, () => stdioClientTransport({ command: process.execPath, args: ["-e", "setInterval(() => {}, 1000)"] }));
await Promise.all(ts.map((t) => t.start(sink)));
console.log(ts.map((t) => t.pid).join(" "));
process.exit(0);`,
      ],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    let stdout = "";
    let stderr = "";
    parent.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk;
    });
    parent.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk;
    });
    await within(new Promise((resolve) => parent.once("close", resolve)), 10_000, "the parent to exit");
    const pids = stdout.trim().split(" ").map(Number);
    expect(pids).toHaveLength(12);
    for (const pid of pids) pool.track(pid, true);
    expect(stderr).not.toContain("MaxListenersExceededWarning");
    expect(await eventually(() => pids.every((pid) => !isAlive(pid)), 5000)).toBe(true);
  });

  it("returns as soon as a well-behaved server exits on stdin EOF", async () => {
    const { client, transport } = await connectFixture([], { killTimeoutMs: 5000 });
    const pid = transport.pid!;
    const started = Date.now();
    await within(client.close(), 4000, "close()");
    expect(Date.now() - started).toBeLessThan(2000);
    expect(transport.exit).toEqual({ code: 0, signal: null });
    expect(isAlive(pid)).toBe(false);
  });

  it("sends SIGTERM after killTimeoutMs to a server that ignores stdin EOF", async () => {
    const { client, transport } = await connectFixture(["--ignore-eof"], { killTimeoutMs: 200 });
    const started = Date.now();
    await within(client.close(), 3000, "close()");
    const took = Date.now() - started;
    expect(transport.exit).toEqual({ code: null, signal: "SIGTERM" });
    expect(took).toBeGreaterThanOrEqual(190);
    expect(took).toBeLessThan(1500);
  });

  it("SIGKILLs a server that ignores stdin EOF and SIGTERM after both timeouts", async () => {
    const { client, transport } = await connectFixture(["--ignore-eof", "--ignore-sigterm"], { killTimeoutMs: 200 });
    const pid = transport.pid!;
    const started = Date.now();
    await within(client.close(), 3000, "close()");
    const took = Date.now() - started;
    expect(transport.exit).toEqual({ code: null, signal: "SIGKILL" });
    expect(took).toBeGreaterThanOrEqual(390);
    expect(took).toBeLessThan(2000);
    expect(isAlive(pid)).toBe(false);
  });

  it("kills a grandchild along with a server that ignores stdin EOF and SIGTERM", async () => {
    const { client, transport } = await connectFixture(["--ignore-eof", "--ignore-sigterm"], { killTimeoutMs: 200 });
    const pid = transport.pid!;
    const gpid = await grandchild(client, {});
    await within(client.close(), 3000, "close()");
    expect(isAlive(pid)).toBe(false);
    expect(await eventually(() => !isAlive(gpid), 500)).toBe(true);
  });

  it("kills a grandchild that ignores SIGTERM along with a server that ignores it too", async () => {
    const { client, transport } = await connectFixture(["--ignore-eof", "--ignore-sigterm"], { killTimeoutMs: 200 });
    const pid = transport.pid!;
    const gpid = await grandchild(client, { ignoreSigterm: true });
    await within(client.close(), 3000, "close()");
    expect(transport.exit?.signal).toBe("SIGKILL");
    expect(isAlive(pid)).toBe(false);
    expect(await eventually(() => !isAlive(gpid), 500)).toBe(true);
  });

  it("kills a grandchild that holds the server's stdout after the server exits on EOF", async () => {
    const { client, transport } = await connectFixture([], { killTimeoutMs: 200 });
    const pid = transport.pid!;
    const gpid = await grandchild(client, { inheritStdout: true });
    await within(client.close(), 3000, "close()");
    expect(transport.exit).toEqual({ code: 0, signal: null });
    expect(isAlive(pid)).toBe(false);
    expect(await eventually(() => !isAlive(gpid), 500)).toBe(true);
  });

  it("kills a grandchild that ignores SIGTERM after the server itself exits cleanly on EOF", async () => {
    const { client, transport } = await connectFixture([], { killTimeoutMs: 200 });
    const pid = transport.pid!;
    const gpid = await grandchild(client, { ignoreSigterm: true });
    await within(client.close(), 3000, "close()");
    expect(transport.exit).toEqual({ code: 0, signal: null });
    expect(isAlive(pid)).toBe(false);
    // close() promises the whole tree: a straggler that shrugs off SIGTERM still needs SIGKILL.
    expect(await eventually(() => !isAlive(gpid), 1000)).toBe(true);
  });
});
