import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requireBuild } from "../cli-call/helpers.js";
import { mcpkit } from "../workflow/helpers.js";
import { CALC, calc, calcOverHttp, stopServers } from "./helpers.js";

// mcpkit snapshot and mcpkit diff on two releases of the calculator: equal snapshots of an
// unchanged server, the changes of the next release each named, exit 1 when one breaks.

let dir: string;
beforeAll(() => {
  requireBuild();
  dir = mkdtempSync(join(tmpdir(), "mcpkit-snapshots-"));
});
afterAll(async () => {
  await stopServers();
  rmSync(dir, { recursive: true, force: true });
});

const run = (args: string[]) => mcpkit(args, { cwd: dir });

describe("mcpkit snapshot", () => {
  it("writes the server's surface, the same bytes each time, over stdio and over HTTP", async () => {
    const first = await run(["snapshot", "--out", "v1.json", "--", ...calc()]);
    expect(first.code).toBe(0);
    expect(first.stderr).toBe("mcpkit snapshot: wrote v1.json\n");
    const again = await run(["snapshot", "--", ...calc()]);
    expect(again.code).toBe(0);
    expect(again.stdout).toBe(readFileSync(join(dir, "v1.json"), "utf8"));
    const surface = JSON.parse(again.stdout);
    expect(surface.tools.map((t: { name: string }) => t.name)).toEqual([
      "add",
      "confirm",
      "count",
      "echo",
      "greet",
      "now",
      "roots",
      "summarize",
    ]);
    expect(surface).toMatchObject({ mcpkitSnapshot: 1, serverInfo: { name: "calc", version: "1.0.0" } });

    const http = await calcOverHttp();
    try {
      const over = await run(["snapshot", http.url]);
      expect(over.code).toBe(0);
      expect(over.stdout).toBe(again.stdout);
    } finally {
      await http.stop();
    }
  });

  it("takes a server by its name in the project's .mcp.json, and says how to give one it cannot find", async () => {
    writeFileSync(
      join(dir, ".mcp.json"),
      JSON.stringify({ mcpServers: { calc: { command: process.execPath, args: [CALC] } } }),
    );
    const named = await run(["snapshot", "calc"]);
    expect(named.code).toBe(0);
    expect(named.stdout).toBe(readFileSync(join(dir, "v1.json"), "utf8"));
    const unknown = await run(["snapshot", "nowhere"]);
    expect(unknown.stderr).toContain(
      '"nowhere" is not a URL; to start a server over stdio, put its command after -- (mcpkit snapshot -- nowhere …)',
    );
    expect(unknown.code).toBe(2);
  });

  it("speaks the revision --protocol names", async () => {
    const legacy = await run(["snapshot", "--protocol", "2025-06-18", "--", ...calc()]);
    expect(JSON.parse(legacy.stdout).protocolVersion).toBe("2025-06-18");
    const wrong = await run(["snapshot", "--protocol", "2099-01-01", "--", ...calc()]);
    expect(wrong.stderr).toContain("--protocol 2099-01-01 is not a revision mcpkit speaks");
    expect(wrong.code).toBe(2);
  });

  it("says why a server could not be snapshotted, with its stderr: exit 1", async () => {
    const failed = await run(["snapshot", "--", process.execPath, CALC, "--bug=start"]);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain("the database is not there (a bug written on purpose)");
  });
});

describe("mcpkit diff", () => {
  beforeAll(async () => {
    await run(["snapshot", "--out", "v1.json", "--", ...calc()]);
    await run(["snapshot", "--out", "v2.json", "--", ...calc("--release=2")]);
  });

  it("lists what breaks and what does not, and exits 1 when something breaks", async () => {
    const result = await run(["diff", "v1.json", "v2.json"]);
    expect(result.stdout).toBe(
      [
        "Breaking (2):",
        '  tool-removed           Tool "echo" was removed',
        '  input-bounds-tightened Tool "greet": input "name" has minLength 2',
        "Compatible (3):",
        '  version-changed        The server\'s version "1.0.0" became "2.0.0"',
        '  input-optional-added   Tool "add": input "round" is new and optional',
        '  tool-added             Tool "multiply" was added',
        "",
      ].join("\n"),
    );
    expect(result.code).toBe(1);
  });

  it("--json: { breaking: [{ kind, target, message }], compatible: [...] }", async () => {
    const result = await run(["diff", "--json", "v1.json", "v2.json"]);
    expect(JSON.parse(result.stdout)).toEqual({
      breaking: [
        { kind: "tool-removed", target: "tool:echo", message: 'Tool "echo" was removed' },
        {
          kind: "input-bounds-tightened",
          target: "tool:greet/input/name",
          message: 'Tool "greet": input "name" has minLength 2',
        },
      ],
      compatible: [
        { kind: "version-changed", target: "server", message: 'The server\'s version "1.0.0" became "2.0.0"' },
        {
          kind: "input-optional-added",
          target: "tool:add/input/round",
          message: 'Tool "add": input "round" is new and optional',
        },
        { kind: "tool-added", target: "tool:multiply", message: 'Tool "multiply" was added' },
      ],
    });
    expect(result.code).toBe(1);
  });

  it("exits 0 when nothing breaks: no change, or only compatible ones", async () => {
    const same = await run(["diff", "v1.json", "v1.json"]);
    expect(same).toMatchObject({ code: 0, stdout: "No changes.\n" });
    const compatibleOnly = JSON.parse(readFileSync(join(dir, "v1.json"), "utf8"));
    compatibleOnly.serverInfo.version = "1.0.1";
    compatibleOnly.tools.push({ name: "extra", inputSchema: { type: "object" } });
    writeFileSync(join(dir, "v1.1.json"), JSON.stringify(compatibleOnly));
    const compatible = await run(["diff", "v1.json", "v1.1.json"]);
    expect(compatible.code).toBe(0);
    expect(compatible.stdout).toContain('  tool-added             Tool "extra" was added');
  });

  it("exits 2 for a file that is missing, not JSON, or not a snapshot", async () => {
    writeFileSync(join(dir, "not-json.json"), "{");
    writeFileSync(join(dir, "other.json"), '{"name":"a package.json"}');
    for (const [file, says] of [
      ["missing.json", "missing.json: no such file"],
      ["not-json.json", "not-json.json is not JSON"],
      ["other.json", "other.json is not a snapshot"],
    ]) {
      const result = await run(["diff", "v1.json", file as string]);
      expect(result.stderr).toContain(says);
      expect(result.code).toBe(2);
    }
  });
});
