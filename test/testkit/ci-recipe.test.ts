import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { CLI_BIN, REPO_ROOT, requireBuild } from "../cli-call/helpers.js";
import { CALC } from "./helpers.js";

// examples/ci/mcp-check.sh, as CI runs it in a project's git checkout: the project's tests,
// its snapshot, and a diff against the snapshot committed at the last release's tag.

const SCRIPT = join(REPO_ROOT, "examples/ci/mcp-check.sh");
const exec = promisify(execFile);
let project: string;

const env = () => ({
  ...process.env,
  MCPKIT: `${process.execPath} ${CLI_BIN}`,
  GIT_AUTHOR_NAME: "t",
  GIT_AUTHOR_EMAIL: "t@example.com",
  GIT_COMMITTER_NAME: "t",
  GIT_COMMITTER_EMAIL: "t@example.com",
  NO_COLOR: "1",
});
const git = (...args: string[]) => exec("git", args, { cwd: project, env: env() });

/** Runs the script in the project against the calculator with `flags`: its exit code and output. */
async function check(...flags: string[]): Promise<{ code: number; out: string }> {
  try {
    const { stdout, stderr } = await exec("sh", [SCRIPT, "--", process.execPath, CALC, ...flags], {
      cwd: project,
      env: env(),
      timeout: 60_000,
    });
    return { code: 0, out: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, out: failed.stdout + failed.stderr };
  }
}

/** The project's test file, against the calculator with `flags`. */
function testFile(...flags: string[]): void {
  const args = [CALC, ...flags].map((a) => JSON.stringify(a)).join(", ");
  writeFileSync(
    join(project, "test/calc.mcptest.yaml"),
    `server: { command: ${JSON.stringify(process.execPath)}, args: [${args}] }
tests:
  - { name: adds, call: add, arguments: { a: 2, b: 3 }, expect: { structuredContent: { sum: 5 } } }
`,
  );
}

beforeAll(async () => {
  requireBuild();
  project = mkdtempSync(join(tmpdir(), "mcpkit-ci-"));
  mkdirSync(join(project, "test"));
  testFile();
  await git("init", "-q");
  await git("add", "-A");
  await git("commit", "-qm", "a server");
});
afterAll(() => rmSync(project, { recursive: true, force: true }));

describe("the CI recipe", () => {
  it("before any release: tests pass, the snapshot is written, there is nothing to compare with", async () => {
    const run = await check();
    expect(run.out).toContain("1 passed, 0 failed");
    expect(run.out).toContain("== no release tag yet: nothing to compare mcp-snapshot.json with");
    expect(run.code).toBe(0);
    expect(readFileSync(join(project, "mcp-test-results.xml"), "utf8")).toContain(
      '<testcase classname="test/calc.mcptest.yaml" name="adds"',
    );
    // The release: its snapshot committed, then tagged.
    await git("add", "mcp-snapshot.json");
    await git("commit", "-qm", "release 1.0.0");
    await git("tag", "v1.0.0");
  });

  it("passes while nothing breaks the release's clients", async () => {
    const run = await check();
    expect(run.out).toContain("== mcpkit diff v1.0.0:mcp-snapshot.json mcp-snapshot.json\nNo changes.");
    expect(run.code).toBe(0);
  });

  it("fails on a breaking change against the release's snapshot, naming it", async () => {
    const run = await check("--release=2");
    expect(run.out).toContain('tool-removed           Tool "echo" was removed');
    expect(run.code).toBe(1);
  });

  it("fails when a test fails, before anything else", async () => {
    testFile("--bug=sum");
    const run = await check("--bug=sum");
    testFile();
    expect(run.out).toContain("at /structuredContent/sum: expected 5, got 6");
    expect(run.out).not.toContain("== mcpkit snapshot");
    expect(run.code).toBe(1);
  });

  it("is what the example workflow runs, with the tags it needs fetched", () => {
    const workflow = parse(readFileSync(join(REPO_ROOT, "examples/ci/github-workflow.yml"), "utf8"));
    const steps = workflow.jobs.check.steps as { run?: string; with?: Record<string, unknown> }[];
    expect(steps.some((step) => step.run?.startsWith("sh scripts/mcp-check.sh -- "))).toBe(true);
    expect(steps.find((step) => step.with?.["fetch-depth"] !== undefined)?.with?.["fetch-depth"]).toBe(0);
  });
});
