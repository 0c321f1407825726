/**
 * The official MCP Inspector's command-line mode (@modelcontextprotocol/inspector --cli,
 * which needs Node >= 22: the Node 24 the conformance suite uses) as a client of mcpkit's
 * servers: `mcpkit serve everything` over Streamable HTTP and over stdio, and
 * `mcpkit serve proxy` fronting it. `--strict` checks every tool schema's portability.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nodeRuntime } from "../../scripts/node-runtime.mjs";
import { testPackageDir } from "../../scripts/test-packages.mjs";
import { closeServed, serveHttp } from "../serve/helpers.js";
import { MCPKIT_BIN, SERVER_NODE } from "../workspace/helpers.js";

// A test package installed on first use (scripts/test-packages.mjs): it wants Node >= 22.
const INSPECTOR = join(testPackageDir("@modelcontextprotocol/inspector"), "clients/launcher/build/index.js");
const home = mkdtempSync(join(tmpdir(), "mcpkit-inspector-"));
let node24 = "";
const targets: Record<string, string[]> = {};

beforeAll(async () => {
  node24 = nodeRuntime(24);
  const [everything, proxy] = await Promise.all([
    serveHttp("everything", []),
    serveHttp("proxy", ["--", SERVER_NODE, MCPKIT_BIN, "serve", "everything"]),
  ]);
  targets["serve everything over HTTP"] = [everything.url.href];
  targets["serve everything over stdio"] = [SERVER_NODE, MCPKIT_BIN, "serve", "everything"];
  targets["serve proxy over HTTP"] = [proxy.url.href];
}, 120_000);

afterAll(async () => {
  await closeServed();
  rmSync(home, { recursive: true, force: true });
});

/** `inspector --cli TARGET… ARGS…`: its exit code and what it printed. */
function inspector(target: string[], args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      node24,
      [INSPECTOR, "--cli", ...target, ...args],
      // Its catalog and settings go in a home of its own.
      { env: { PATH: process.env.PATH, HOME: home }, timeout: 60_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe("the Inspector CLI on mcpkit's servers", () => {
  it("lists tools with portable schemas (--strict) on each, calls, reads and gets a prompt through the proxy", async () => {
    const names = Object.keys(targets);
    const proxied = targets["serve proxy over HTTP"] as string[];
    const [listings, [call, read, prompt, direct]] = await Promise.all([
      Promise.all(names.map((name) => inspector(targets[name] as string[], ["--method", "tools/list", "--strict"]))),
      Promise.all([
        inspector(proxied, ["--method", "tools/call", "--tool-name", "add", "--tool-arg", "a=1", "b=2"]),
        inspector(proxied, ["--method", "resources/read", "--uri", "test://static-text"]),
        inspector(proxied, ["--method", "prompts/get", "--prompt-name", "test_simple_prompt"]),
        inspector(targets["serve everything over HTTP"] as string[], [
          "--method",
          "tools/call",
          "--tool-name",
          "add",
          "--tool-arg",
          "a=1",
          "b=2",
        ]),
      ]),
    ]);
    listings.forEach((tools, i) => {
      expect(tools.code, `${names[i]}: ${tools.stderr}`).toBe(0);
      expect((JSON.parse(tools.stdout) as { tools: { name: string }[] }).tools.map((t) => t.name)).toContain("add");
    });
    for (const called of [call, direct]) {
      expect(called.code, called.stderr).toBe(0);
      expect(JSON.parse(called.stdout)).toMatchObject({ structuredContent: { sum: 3 } });
    }
    expect(read.code, read.stderr).toBe(0);
    expect(JSON.parse(read.stdout)).toMatchObject({
      contents: [{ uri: "test://static-text", mimeType: "text/plain" }],
    });
    expect(prompt.code, prompt.stderr).toBe(0);
    expect((JSON.parse(prompt.stdout) as { messages: unknown[] }).messages.length).toBeGreaterThan(0);
  }, 90_000);
});
