import { afterEach, describe, expect, it } from "vitest";
import { diagnose } from "../../packages/cli/src/doctor/index.js";
import { check, cleanUp, outline, rawServer, stdioFixture } from "./helpers.js";

// The doctor against stdio servers written to fail one way each, as real child processes.
// Each failure names its cause and its fix; a server that works passes every check.

afterEach(cleanUp);

describe("doctor over stdio", () => {
  it("passes a clean server that speaks both eras, step by step", async () => {
    const report = await diagnose(stdioFixture("clean-server.mjs"));
    expect(outline(report)).toEqual([
      "command: ok",
      "handshake: ok",
      "revision: ok",
      "legacy-clients: ok",
      "tools: ok",
      "prompts: ok",
      "resources: ok",
      "resource-templates: ok",
      "process: ok",
      "stdout: ok",
      "stderr: info",
    ]);
    expect(report.ok).toBe(true);
    expect(check(report, "handshake").message).toMatch(
      /^The server \(clean 1\.0\.0\) answered server\/discover in \d+ ms$/,
    );
    expect(check(report, "revision").message).toBe("2026-07-28 (modern era: server/discover, no session)");
    expect(check(report, "tools").message).toBe("1 tool: add");
    expect(check(report, "resource-templates").message).toBe("1 resource template: docs://pages/{page}");
    expect(check(report, "stderr").message).toBe(
      "The server wrote to stderr; its last lines:\nclean: serving on stdio",
    );
    expect(report.checks.every((c) => c.fix === undefined)).toBe(true);
  });

  it("passes a 2025-11-25 server (the initialize handshake) with no era check to make", async () => {
    const report = await diagnose(stdioFixture("clean-server.mjs", "legacy"));
    expect(report.ok).toBe(true);
    expect(check(report, "handshake").message).toContain("answered initialize in");
    expect(check(report, "revision").message).toBe("2025-11-25 (legacy era: the initialize handshake)");
    expect(report.checks.some((c) => c.id === "legacy-clients")).toBe(false);
  });

  it("warns that a 2026-07-28-only server turns clients of 2025-11-25 away, and still passes it", async () => {
    const report = await diagnose(rawServer({ modernOnly: true, tools: [] }));
    expect(check(report, "revision").message).toBe("2026-07-28 (modern era: server/discover, no session)");
    const legacy = check(report, "legacy-clients");
    expect(legacy).toMatchObject({ ok: false, severity: "warning" });
    expect(legacy.message).toContain("The server refuses initialize");
    expect(legacy.message).toContain("clients of 2025-11-25 and earlier cannot connect");
    expect(report.ok).toBe(true);
  });

  it("a command that is not on PATH: says so, and how clients find commands", async () => {
    const report = await diagnose({ kind: "stdio", command: "mcpkit-no-such-server", args: [], env: {} });
    expect(outline(report)).toEqual(["command: error"]);
    expect(report.ok).toBe(false);
    const command = check(report, "command");
    expect(command.message).toContain("Could not start mcpkit-no-such-server: not found on PATH");
    expect(command.fix).toContain("a client starts servers with its own PATH");
  });

  it("a path that does not exist, and a working directory that does not", async () => {
    const missing = await diagnose({ kind: "stdio", command: "./no/such/server.sh", args: [], env: {} });
    expect(check(missing, "command").message).toContain("no such file");
    expect(check(missing, "command").fix).toContain("Correct the path to ./no/such/server.sh");
    const cwd = await diagnose({ ...stdioFixture("clean-server.mjs"), cwd: "/no/such/folder" } as never);
    expect(check(cwd, "command").message).toContain("its working directory /no/such/folder does not exist");
  });

  it("a process that exits at start: its exit code and what it wrote to stderr", async () => {
    const report = await diagnose(stdioFixture("crash-server.mjs"));
    expect(outline(report)).toEqual(["command: ok", "process: error", "stdout: ok", "stderr: info"]);
    const process = check(report, "process");
    expect(process.message).toBe(
      "The server exited with code 1 before answering; its stderr ends:\nError: WEATHER_API_KEY is not set.\n    at start (server.mjs:3:9)",
    );
    expect(process.fix).toContain("--env KEY=VALUE");
    // Shown once, with the exit.
    expect(check(report, "stderr").message).toBe(
      "The server wrote to stderr: its last lines are shown above, with its exit",
    );
  });

  it("a banner on stdout is an error, though mcpkit's client gets past it: strict clients do not", async () => {
    const report = await diagnose(stdioFixture("banner-server.mjs"));
    const stdout = check(report, "stdout");
    expect(stdout).toMatchObject({ ok: false, severity: "error" });
    expect(stdout.message).toBe('1 line on stdout is not MCP; the first: "Weather server v1.2 listening on stdio"');
    expect(stdout.fix).toContain("Write logs and banners to stderr");
    expect(check(report, "tools").ok).toBe(true);
    expect(report.ok).toBe(false);
  });

  it("a JSON log line on stdout is as stray as a banner: JSON, but not JSON-RPC", async () => {
    const report = await diagnose(stdioFixture("banner-server.mjs", "json"));
    expect(check(report, "stdout").message).toBe(
      '1 line on stdout is not MCP; the first: "{\\"level\\":\\"info\\",\\"msg\\":\\"weather server ready\\"}"',
    );
    expect(report.ok).toBe(false);
  });

  it("a server too slow to answer initialize: the step's timeout, and the fix", async () => {
    const report = await diagnose(rawServer({ tools: [], initializeDelayMs: 30_000 }), { timeoutMs: 1000 });
    expect(outline(report)).toEqual(["command: ok", "handshake: error", "stdout: ok", "stderr: info"]);
    const handshake = check(report, "handshake");
    expect(handshake.message).toBe(
      "No answer to server/discover or initialize within 1 s: clients give up on a server this slow to start",
    );
    expect(handshake.fix).toContain("Answer initialize at once");
  });

  it("a revision both sides do not share: the server answered, in a revision no client speaks", async () => {
    const report = await diagnose(rawServer({ protocolVersion: "2023-01-01", tools: [] }));
    expect(outline(report)).toEqual(["command: ok", "handshake: ok", "revision: error", "stdout: ok", "stderr: info"]);
    expect(check(report, "revision").message).toContain(
      'The server answered with protocol revision "2023-01-01", which this client does not support',
    );
  });

  it("a list the capabilities offer that fails, and a process that exits while it is checked", async () => {
    const report = await diagnose(rawServer({ tools: [], prompts: [], exitOn: "prompts/list" }));
    expect(check(report, "prompts")).toMatchObject({ ok: false, severity: "error" });
    expect(check(report, "prompts").message).toContain("Server process exited with code 3");
    expect(check(report, "process").message).toBe(
      "The server exited with code 3 while it was being checked; it wrote nothing to stderr",
    );
    expect(report.ok).toBe(false);
  });

  it("names each list's failure: the server's own words", async () => {
    const report = await diagnose(rawServer({ tools: "fail", prompts: [] }));
    expect(check(report, "tools").message).toBe("tools/list failed: the database is offline");
    expect(check(report, "prompts").message).toBe("prompts/list answers, with no prompts");
    expect(check(report, "resources").message).toBe("No resources: the server's capabilities do not offer them");
  });

  it("reports each check as it is decided (what the inspector shows while it runs)", async () => {
    const seen: string[] = [];
    const report = await diagnose(stdioFixture("crash-server.mjs"), { onCheck: (c) => seen.push(c.id) });
    expect(seen).toEqual(report.checks.map((c) => c.id));
  });
});
