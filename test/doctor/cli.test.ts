import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSseHandler, createStreamableHttpHandler, type Listening, listen, routeByPath } from "mcpkit/http";
import { createServer } from "mcpkit/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mcpkit, requireBuild } from "../cli-call/helpers.js";
import { FIXTURES } from "./helpers.js";

// `mcpkit doctor` as a person and a script run it: the built command, real servers, the
// exit codes and the --json shape the docs promise.

const node = process.execPath;
const fixture = (file: string) => join(FIXTURES, file);
let http: Listening;
let dir: string;

beforeAll(async () => {
  requireBuild();
  dir = mkdtempSync(join(tmpdir(), "mcpkit-doctor-cli-"));
  const server = createServer({ name: "http-fixture", version: "1.0.0" });
  server.tool("ping", { description: "Answers pong" }, () => "pong");
  const mcp = createStreamableHttpHandler(server);
  const sse = createSseHandler(server);
  http = await listen(
    routeByPath((path) => (path === "/mcp" ? mcp : path === "/sse" || path === "/messages" ? sse : undefined)),
  );
});
afterAll(async () => {
  await http.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("mcpkit doctor", () => {
  it("exits 0 for a server that works, each step on its line, and says so", async () => {
    const run = await mcpkit(["doctor", "--", node, fixture("clean-server.mjs")]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`mcpkit doctor: ${node} ${fixture("clean-server.mjs")}\n`);
    expect(run.stdout).toMatch(/\n {2}✓ command {17}Started /);
    expect(run.stdout).toContain("  ✓ stdout                  Only JSON-RPC messages on stdout\n");
    expect(run.stdout).toContain("  · stderr                  The server wrote to stderr; its last lines:\n");
    expect(run.stdout.trimEnd().split("\n").at(-1)).toBe("The server works: no problem found.");
  });

  it("--json: { ok, checks: [{ id, ok, severity, message, fix? }] }, and exit 1 exactly when an error failed", async () => {
    const run = await mcpkit(["doctor", "--json", "--", node, fixture("crash-server.mjs")]);
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout);
    expect(Object.keys(report)).toEqual(["ok", "checks"]);
    expect(report.ok).toBe(false);
    for (const check of report.checks) {
      expect(Object.keys(check)).toEqual(
        check.ok ? ["id", "ok", "severity", "message"] : ["id", "ok", "severity", "message", "fix"],
      );
      expect(["error", "warning", "info"]).toContain(check.severity);
    }
    expect(report.checks.find((c: { id: string }) => c.id === "process").message).toContain(
      "WEATHER_API_KEY is not set",
    );
  });

  it("a URL off the endpoint exits 1 naming the path that answers; HTTP+SSE passes with its warning", async () => {
    const root = await mcpkit(["doctor", http.url.href]);
    expect(root.code).toBe(1);
    expect(root.stdout).toContain(`fix: Use ${new URL("/mcp", http.url).href}: it answers MCP (Streamable HTTP).`);
    expect(root.stdout.trimEnd().split("\n").at(-1)).toBe("1 error: a client cannot use this server as it is.");
    const sse = await mcpkit(["doctor", "--json", new URL("/sse", http.url).href]);
    expect(sse.code).toBe(0);
    const report = JSON.parse(sse.stdout);
    expect(report.ok).toBe(true);
    expect(report.checks.find((c: { id: string }) => c.id === "legacy-sse")).toMatchObject({
      ok: false,
      severity: "warning",
    });
  });

  it("reads a server's NAME from an MCP configuration file, as call and inspect do", async () => {
    const config = join(dir, "mcp.json");
    writeFileSync(
      config,
      JSON.stringify({ mcpServers: { clean: { command: node, args: [fixture("clean-server.mjs")] } } }),
    );
    expect((await mcpkit(["doctor", "--config", config, "clean"])).code).toBe(0);
    const unknown = await mcpkit(["doctor", "--config", config, "nope"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain(
      '"nope" is not a URL; to start a server over stdio, put its command after -- (mcpkit doctor -- nope …)',
    );
    expect(unknown.stderr).toContain("Servers named there: clean.");
  });

  it("--timeout bounds each step", async () => {
    const scenario = join(dir, "slow.json");
    writeFileSync(scenario, JSON.stringify({ tools: [], initializeDelayMs: 30_000 }));
    const run = await mcpkit(["doctor", "--timeout", "500ms", "--", node, fixture("raw-server.mjs"), scenario]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("No answer to server/discover or initialize within 500 ms");
  });

  it.each([
    [[], "Name a server: a URL (http://…/mcp), after -- the command that starts it"],
    [
      ["--timeout", "soon", "http://127.0.0.1:1/mcp"],
      '--timeout takes a duration such as 90 (seconds), 90s, 15m or 2h, not "soon"',
    ],
    [["http://127.0.0.1:1/mcp", "http://127.0.0.1:2/mcp"], "One server at a time"],
    [["--env", "X=1", "http://127.0.0.1:1/mcp"], "--env is for a stdio server"],
    [["--bogus", "http://127.0.0.1:1/mcp"], "unknown option '--bogus'"],
  ])("exits 2 on a usage mistake: %j", async (args, message) => {
    const run = await mcpkit(["doctor", ...args]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
  });

  it("shows a server's stderr without its terminal escape sequences", async () => {
    const run = await mcpkit(["doctor", "--", node, fixture("crash-server.mjs"), "escape"]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("\\u001b]0;owned\\u0007\\u001b[2Jfatal: cannot start");
    expect(run.stdout).not.toContain("\x1b");
    expect(run.stdout).not.toContain("\x07");
  });
});
