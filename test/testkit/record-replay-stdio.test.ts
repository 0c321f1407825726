import { spawn } from "node:child_process";
import { lstatSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stdioClientTransport } from "mcpkit/stdio";
import { parseRecording } from "mcpkit/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CLI_BIN, mcpkit, requireBuild, stopAll, tempDir, until } from "../cli-call/helpers.js";
import { calc, EVERYTHING, FIXTURES, type Revision, recordingClient, recordOverStdio } from "./helpers.js";

// mcpkit record -- COMMAND and mcpkit replay FILE -- COMMAND, with real processes: a client
// starts the relay as its server, the relay starts the calculator; the recording is then
// replayed against the calculator and against versions of it written to fail each way.

beforeAll(requireBuild);
afterEach(stopAll);

describe.each(["2025-11-25", "2026-07-28"] as const)("a %s session over stdio", (revision: Revision) => {
  let dir: string;
  let recording: string;
  beforeAll(async () => {
    // Its own folder: tempDir()'s are removed after each test, and this one serves them all.
    dir = mkdtempSync(join(tmpdir(), "mcpkit-stdio-session-"));
    recording = join(dir, "session.jsonl");
    const { said, exit } = await recordOverStdio(recording, revision, calc());
    // The client got what it gets without the relay, and the relay exited as its server did.
    expect(said).toEqual(EVERYTHING);
    expect(exit).toEqual({ code: 0, signal: null });
  }, 30_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("is recorded as JSON lines, every message both ways, readable by its owner only", () => {
    expect(statSync(recording).mode & 0o777).toBe(0o600);
    const entries = parseRecording(readFileSync(recording, "utf8"));
    const methods = entries.map((e) => `${e.from} ${(e.message as { method?: string }).method ?? "answer"}`);
    expect(methods[0]).toBe(revision === "2025-11-25" ? "client initialize" : "client server/discover");
    expect(methods).toContain("server notifications/progress");
    if (revision === "2025-11-25")
      for (const asked of ["elicitation/create", "sampling/createMessage", "roots/list"]) {
        expect(methods).toContain(`server ${asked}`);
      }
    else
      expect(entries.filter((e) => JSON.stringify(e.message).includes('"resultType":"input_required"'))).toHaveLength(
        3,
      );
    expect(
      entries.filter((e) => e.from === "client" && (e.message as { method?: string }).method === "tools/call"),
    ).toHaveLength(revision === "2025-11-25" ? 6 : 9);
    for (let i = 1; i < entries.length; i++) expect((entries[i]?.t ?? 0) >= (entries[i - 1]?.t ?? 0)).toBe(true);
  });

  it("replays against the same server: exit 0", async () => {
    const run = await mcpkit(["replay", recording, "--", ...calc()], 20_000);
    expect(run.stdout).toMatch(
      /^Replayed \d+ messages against .*calc-server\.mjs: the server answered as recorded\.\n$/,
    );
    expect(run.code).toBe(0);
  });

  it("replays against a server that adds wrong: exit 1, and where the answer differs", async () => {
    const run = await mcpkit(["replay", recording, "--", ...calc("--bug=sum")], 20_000);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/1 difference\n1\. answer to tools\/call "add" \(id \d+\): differs\n/);
    expect(run.stdout).toContain("     /result/structuredContent/sum: recorded 5, replayed 6\n");
    expect(run.stdout).toContain('     /result/content/0/text: recorded "5", replayed "6"\n');
  });

  it("replays against a server that sends no progress, or asks another question", async () => {
    const quiet = await mcpkit(["replay", recording, "--", ...calc("--bug=progress")], 20_000);
    expect(quiet.code).toBe(1);
    expect(quiet.stdout).toContain("notification notifications/progress #1: missing: the server did not send it");
    expect(quiet.stdout).toContain("notification notifications/progress #2: missing: the server did not send it");
    const asks = await mcpkit(["replay", recording, "--", ...calc("--bug=elicit")], 20_000);
    expect(asks.code).toBe(1);
    expect(asks.stdout).toContain('recorded "Confirm the order?", replayed "Really the order?"');
  });

  it("replays against a server that crashes, or does not start: what is missing, and its stderr", async () => {
    const crash = await mcpkit(["replay", recording, "--", ...calc("--bug=crash")], 20_000);
    expect(crash.code).toBe(1);
    expect(crash.stdout).toContain("the connection: closed early: Server process exited with code 7");
    expect(crash.stdout).toMatch(/answer to tools\/call "add" \(id \d+\): missing: the server did not send it/);
    const start = await mcpkit(["replay", recording, "--", ...calc("--bug=start")], 20_000);
    expect(start.code).toBe(1);
    expect(start.stdout).toContain("the database is not there (a bug written on purpose)");
  });

  it("replays against the next release: the version it gives differs (2025-11-25), which --ignore sets aside", async () => {
    const run = await mcpkit(["replay", recording, "--", ...calc("--release=2")], 20_000);
    if (revision === "2026-07-28") {
      // A 2026-07-28 server names itself in _meta, which replay ignores; nothing this session used changed.
      expect(run.stdout).toMatch(/the server answered as recorded/);
      expect(run.code).toBe(0);
      return;
    }
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('     /result/serverInfo/version: recorded "1.0.0", replayed "2.0.0"\n');
    const ignored = await mcpkit(
      ["replay", recording, "--ignore", "/result/serverInfo/version", "--", ...calc("--release=2")],
      20_000,
    );
    expect(ignored.stdout).toMatch(/the server answered as recorded/);
    expect(ignored.code).toBe(0);
  });
});

describe("the stdio relay", () => {
  /** Starts `mcpkit record` in front of the raw server; what it printed, and how it ended. */
  function relay(out: string, log: string, ...flags: string[]) {
    const child = spawn(
      process.execPath,
      [CLI_BIN, "record", "--out", out, "--", process.execPath, `${FIXTURES}raw-server.mjs`, ...flags],
      { stdio: ["pipe", "pipe", "pipe"], env: { ...process.env, RAW_LOG: log } },
    );
    const stdout: Buffer[] = [];
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    const exited = new Promise<number | null>((resolve) => child.once("close", resolve));
    return { child, stdout: () => Buffer.concat(stdout), stderr: () => stderr, exited };
  }

  it("forwards every byte both ways as it came, records each message parsed, and exits with the server when stdin closes", async () => {
    const dir = tempDir();
    const [out, log] = [join(dir, "raw.jsonl"), join(dir, "raw.log")];
    const sent = [
      '{"jsonrpc":"2.0",  "id":1, "method":"ping" , "params":{"x":"\\u00e9", "y":1.50}}\n',
      '{"method":"tools/list","id":"two","jsonrpc":"2.0"}\n',
    ];
    const running = relay(out, log);
    running.child.stdin.write(sent[0]);
    await until(() => running.stdout().includes(10), 10_000, "the first answer");
    running.child.stdin.end(sent[1]);
    expect(await running.exited).toBe(5);
    // The server read exactly what the client wrote, and the client what the server wrote.
    expect(readFileSync(log, "utf8")).toBe(sent.join(""));
    const answer = (id: string) =>
      `{ "result" : { "caf\\u00e9":  "\\u00e9t\\u00e9", "z": 1, "a": 2 }, "id":${id},"jsonrpc":"2.0"}\n`;
    expect(running.stdout().toString("utf8")).toBe(answer("1") + answer('"two"'));
    expect(parseRecording(readFileSync(out, "utf8"))).toEqual([
      {
        t: expect.any(Number),
        from: "client",
        message: { jsonrpc: "2.0", id: 1, method: "ping", params: { x: "é", y: 1.5 } },
      },
      {
        t: expect.any(Number),
        from: "server",
        message: { result: { café: "été", z: 1, a: 2 }, id: 1, jsonrpc: "2.0" },
      },
      { t: expect.any(Number), from: "client", message: { method: "tools/list", id: "two", jsonrpc: "2.0" } },
      {
        t: expect.any(Number),
        from: "server",
        message: { result: { café: "été", z: 1, a: 2 }, id: "two", jsonrpc: "2.0" },
      },
    ]);
  });

  it("ends the server, and records what it said, when the client stops reading (a broken pipe, no crash)", async () => {
    const dir = tempDir();
    const [out, log] = [join(dir, "gone.jsonl"), join(dir, "gone.log")];
    const running = relay(out, log);
    running.child.stdout.destroy();
    running.child.stdin.write('{"jsonrpc":"2.0","id":1,"method":"ping"}\n');
    // The server's answer meets the closed pipe: the relay closes the server's stdin, which ends it.
    expect(await running.exited).toBe(5);
    expect(running.stderr()).not.toMatch(/Error|at .*\.js/);
    expect(parseRecording(readFileSync(out, "utf8")).map((e) => e.from)).toEqual(["client", "server"]);
  });

  it("ends a server that keeps running after its stdin closed", async () => {
    const dir = tempDir();
    const running = relay(join(dir, "r.jsonl"), join(dir, "r.log"), "--ignore-eof");
    running.child.stdin.end('{"jsonrpc":"2.0","id":1,"method":"ping"}\n');
    // SIGTERM after the grace period: the relay exits with the server, killed.
    expect(await running.exited).not.toBe(0);
  }, 15_000);

  it("leaves the server's variables, --secret values and credential-named values out of the recording", async () => {
    const dir = tempDir();
    const out = join(dir, "secrets.jsonl");
    const client = recordingClient("2025-11-25");
    await client.connect(
      stdioClientTransport({
        command: process.execPath,
        args: [
          CLI_BIN,
          "record",
          "--out",
          out,
          "-e",
          "CALC_API_KEY=sk-from-the-environment-42",
          "--secret",
          "typed-on-the-command-line",
          "--",
          ...calc(),
        ],
        stderr: "pipe",
      }),
    );
    const echoed = await client.callTool("echo", { text: "sk-from-the-environment-42 / typed-on-the-command-line" });
    const login = await client.callTool("echo", { text: "plain", password: "hunter2!" });
    await client.close();
    // The client got them: the relay changes nothing it forwards.
    expect(echoed.content).toEqual([{ type: "text", text: "sk-from-the-environment-42 / typed-on-the-command-line" }]);
    expect(login.content).toEqual([{ type: "text", text: "plain" }]);
    await until(() => readFileSync(out, "utf8").split("\n").length > 6, 5000, "the recording");
    const text = readFileSync(out, "utf8");
    for (const secret of ["sk-from-the-environment-42", "typed-on-the-command-line", "hunter2!"])
      expect(text).not.toContain(secret);
    expect(text).toContain('"text":"[redacted] / [redacted]"');
    expect(text).toContain('"password":"[redacted]"');
  });

  it("replaces a link planted where the recording goes, never writing through it", async () => {
    const dir = tempDir();
    const victim = join(dir, "victim.txt");
    writeFileSync(victim, "precious\n");
    const out = join(dir, "session.jsonl");
    symlinkSync(victim, out);
    const { said } = await recordOverStdio(out, "2025-11-25", calc());
    expect(said).toEqual(EVERYTHING);
    expect(readFileSync(victim, "utf8")).toBe("precious\n");
    expect(lstatSync(out).isSymbolicLink()).toBe(false);
    expect(statSync(out).mode & 0o777).toBe(0o600);
    expect(parseRecording(readFileSync(out, "utf8")).length).toBeGreaterThan(10);
  });
});
