import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requireBuild } from "../cli-call/helpers.js";
import { mcpkit } from "../workflow/helpers.js";
import { CALC, calcOverHttp, stopServers } from "./helpers.js";

// mcpkit test as a project runs it: its test files found under the folder (not in
// node_modules or dot folders), each file's server started in the file's folder, one line
// per test and `N passed, N failed` last, exit 0, 1 or 2, reports for CI.

let project: string;
const node = JSON.stringify(process.execPath);

const PASSING = `server: { command: ${node}, args: [./run-calc.mjs] }
protocol: "2025-11-25"
tests:
  - name: adds two numbers
    call: add
    arguments: { a: 2, b: 3 }
    expect: { structuredContent: { sum: 5 } }
  - name: unknown tool is an error
    call: nope
    expect: { error: true }
  - name: greets
    call: greet
    arguments: { name: Ada }
    expect: { text: "Hello, Ada" }
  - name: counts, with progress and a log
    call: count
    arguments: { n: 3 }
    expect: { notifications: [notifications/progress, notifications/message] }
`;

beforeAll(() => {
  requireBuild();
  project = mkdtempSync(join(tmpdir(), "mcpkit-test-command-"));
  mkdirSync(join(project, "tests"));
  // A relative path in the file: found only if the server starts in the file's folder.
  writeFileSync(join(project, "tests/run-calc.mjs"), `await import(${JSON.stringify(CALC)});\n`);
  writeFileSync(join(project, "tests/calc.mcptest.yaml"), PASSING);
  // Test files of other people's packages and of dot folders would fail: they are not run.
  for (const hidden of ["node_modules/dep", ".cache"]) {
    mkdirSync(join(project, hidden), { recursive: true });
    writeFileSync(join(project, hidden, "theirs.mcptest.yaml"), "this: [is not a test file\n");
  }
});
afterAll(async () => {
  await stopServers();
  rmSync(project, { recursive: true, force: true });
});

describe("mcpkit test", () => {
  it("runs **/*.mcptest.yaml, each server in its file's folder: a line per test, the count last, exit 0", async () => {
    const run = await mcpkit(["test"], { cwd: project });
    expect(run.stdout).toMatch(
      /^tests\/calc\.mcptest\.yaml\n {2}✓ adds two numbers \(\d+ ms\)\n {2}✓ unknown tool is an error \(\d+ ms\)\n {2}✓ greets \(\d+ ms\)\n {2}✓ counts, with progress and a log \(\d+ ms\)\n4 passed, 0 failed\n$/,
    );
    expect(run.code).toBe(0);
  });

  it("exits 1 when a test fails, saying what did not hold", async () => {
    const file = join(project, "tests/buggy.mcptest.yaml");
    writeFileSync(file, PASSING.replace("args: [./run-calc.mjs]", "args: [./run-calc.mjs, --bug=sum]"));
    try {
      const run = await mcpkit(["test", "tests/buggy.mcptest.yaml", "tests/calc.mcptest.yaml"], { cwd: project });
      expect(run.stdout).toContain("  ✗ adds two numbers (");
      expect(run.stdout).toContain("      at /structuredContent/sum: expected 5, got 6\n");
      expect(run.stdout.trimEnd().split("\n").at(-1)).toBe("7 passed, 1 failed");
      expect(run.code).toBe(1);
    } finally {
      rmSync(file);
    }
  });

  it("fails the tests of a server that does not start, with what it wrote to stderr", async () => {
    const file = join(project, "tests/broken.mcptest.yaml");
    writeFileSync(file, PASSING.replace("args: [./run-calc.mjs]", "args: [./run-calc.mjs, --bug=start]"));
    try {
      const run = await mcpkit(["test", "tests/broken.mcptest.yaml"], { cwd: project });
      expect(run.stdout).toContain("the database is not there (a bug written on purpose)");
      expect(run.stdout.trimEnd().split("\n").at(-1)).toBe("0 passed, 4 failed");
      expect(run.code).toBe(1);
    } finally {
      rmSync(file);
    }
  });

  it("reconnects after a server that crashed, for the tests after it", async () => {
    const file = join(project, "tests/crash.mcptest.yaml");
    writeFileSync(
      file,
      `server: { command: ${node}, args: [./run-calc.mjs, --bug=crash] }
tests:
  - { name: crashes, call: add, arguments: { a: 1, b: 2 } }
  - { name: after it, call: greet, arguments: { name: Bo }, expect: { text: Hello } }
`,
    );
    try {
      const run = await mcpkit(["test", "tests/crash.mcptest.yaml"], { cwd: project });
      expect(run.stdout).toMatch(/✗ crashes \(\d+ ms\)\n {6}no answer: /);
      expect(run.stdout).toMatch(/✓ after it/);
      expect(run.code).toBe(1);
    } finally {
      rmSync(file);
    }
  });

  it("takes a server over HTTP, and one named in the project's .mcp.json", async () => {
    const http = await calcOverHttp();
    const dir = mkdtempSync(join(tmpdir(), "mcpkit-test-named-"));
    try {
      writeFileSync(
        join(dir, ".mcp.json"),
        JSON.stringify({
          mcpServers: { calc: { command: process.execPath, args: [CALC] }, remote: { url: http.url } },
        }),
      );
      const tests =
        "tests:\n  - { name: adds, call: add, arguments: { a: 1, b: 1 }, expect: { structuredContent: { sum: 2 } } }\n";
      writeFileSync(join(dir, "named.mcptest.yaml"), `server: calc\n${tests}`);
      writeFileSync(join(dir, "remote.mcptest.yaml"), `server: remote\n${tests}`);
      writeFileSync(join(dir, "url.mcptest.yaml"), `server: { url: ${JSON.stringify(http.url)} }\n${tests}`);
      const run = await mcpkit(["test"], { cwd: dir });
      expect(run.stdout.trimEnd().split("\n").at(-1)).toBe("3 passed, 0 failed");
      expect(run.code).toBe(0);
      writeFileSync(join(dir, "unknown.mcptest.yaml"), `server: nowhere\n${tests}`);
      const unknown = await mcpkit(["test", "unknown.mcptest.yaml"], { cwd: dir });
      expect(unknown.stderr).toContain('No server named "nowhere"');
      expect(unknown.code).toBe(2);
    } finally {
      await http.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("writes JUnit or JSON for CI: to stdout (the count then last on stderr), or to --output", async () => {
    const junit = await mcpkit(["test", "--reporter", "junit"], { cwd: project });
    expect(junit.code).toBe(0);
    expect(junit.stdout).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="mcpkit test" tests="4" failures="0" errors="0">\n/,
    );
    expect(junit.stdout).toContain('<testcase classname="tests/calc.mcptest.yaml" name="adds two numbers" time="');
    expect(junit.stderr.trimEnd().split("\n").at(-1)).toBe("4 passed, 0 failed");

    const json = await mcpkit(["test", "--reporter", "json", "--output", "report/out.json"], { cwd: project });
    expect(json.code).toBe(0);
    expect(json.stdout.trimEnd().split("\n").at(-1)).toBe("4 passed, 0 failed");
    const report = JSON.parse(readFileSync(join(project, "report/out.json"), "utf8"));
    expect(report).toMatchObject({ passed: 4, failed: 0, files: [{ file: "tests/calc.mcptest.yaml" }] });
    expect(report.files[0].tests[0]).toEqual({
      name: "adds two numbers",
      ok: true,
      ms: expect.any(Number),
      failures: [],
    });
  });

  it("exits 2 for a usage mistake: a file that cannot be read or holds a typo, no test files, a reporter it lacks", async () => {
    const typo = join(project, "typo.yaml");
    writeFileSync(typo, "tests: [{ name: a, call: add, expcet: {} }]\n");
    try {
      const run = await mcpkit(["test", "typo.yaml"], { cwd: project });
      expect(run.stderr).toContain('typo.yaml: tests[0]: unknown key "expcet"');
      expect(run.stdout).toBe("");
      expect(run.code).toBe(2);
    } finally {
      rmSync(typo);
    }
    expect((await mcpkit(["test", "missing.mcptest.yaml"], { cwd: project })).code).toBe(2);
    expect((await mcpkit(["test", "--reporter", "tap"], { cwd: project })).code).toBe(2);
    const empty = mkdtempSync(join(tmpdir(), "mcpkit-test-empty-"));
    try {
      const none = await mcpkit(["test"], { cwd: empty });
      expect(none.stderr).toContain("No test files here");
      expect(none.code).toBe(2);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
