import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { npmCommand, npmEnv } from "../../scripts/node-runtime.mjs";
import { requireBuild } from "../cli-call/helpers.js";

// `mcpkit` installed globally from the packed tarballs, as the README says, in a folder of
// its own: `bundle <built-in>` and `serve <built-in>` work there, outside the clone, and an
// optional peer is needed only by the server that uses it. Before, `mcpkit bundle weather`
// failed there on the GitHub server's @octokit/rest.

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const PACKAGES = ["packages/mcpkit", "packages/servers", "packages/cli"];
const MCPB = join(ROOT, "node_modules/@anthropic-ai/mcpb/dist/cli/cli.js");

let dir = "";
let prefix = "";
let work = "";
const env = npmEnv({ PATH: [dirname(process.execPath), process.env.PATH].join(delimiter), NO_COLOR: "1" });
const run = (tool: "npm" | "npx", args: string[], cwd: string) => {
  const [command, ...rest] = npmCommand(tool);
  return promisify(execFile)(command, [...rest, ...args], { cwd, env, timeout: 240_000 });
};
/** The global `mcpkit`, run to its end: exit code and output. */
const mcpkit = (args: string[]) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    const child = execFile(
      process.execPath,
      [join(prefix, "bin", "mcpkit"), ...args],
      { cwd: work, env, timeout: 120_000 },
      (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, stderr }),
    );
    child.stdin?.end();
  });

beforeAll(async () => {
  requireBuild();
  dir = mkdtempSync(join(tmpdir(), "mcpkit-global-"));
  const tarballs = join(dir, "tarballs");
  mkdirSync(tarballs);
  const files: string[] = [];
  for (const pkg of PACKAGES) {
    const { stdout } = await run("npm", ["pack", "--json", "--pack-destination", tarballs], join(ROOT, pkg));
    files.push(join(tarballs, (JSON.parse(stdout) as { filename: string }[])[0]?.filename as string));
  }
  prefix = join(dir, "global");
  work = join(dir, "work");
  mkdirSync(work);
  // npm install --global, into a prefix of the test's own. better-sqlite3's native build is
  // not what this tests (scripts off): the workspace is not bundled here.
  await run(
    "npm",
    [
      "install",
      "--global",
      "--prefix",
      prefix,
      ...files,
      "--ignore-scripts",
      "--prefer-offline",
      "--no-audit",
      "--no-fund",
    ],
    dir,
  );
}, 300_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }), 120_000);

describe("a global install from the tarballs", () => {
  it("has no @octokit/rest: an optional peer, for the GitHub server alone", () => {
    expect(() => readFileSync(join(prefix, "lib/node_modules/@octokit/rest/package.json"))).toThrow();
  });

  it("bundles weather with its flags (docs/workflow.md), and the bundle runs", async () => {
    const bundled = await mcpkit(["bundle", "weather", "--out", "weather.mcpb", "--", "--units", "imperial"]);
    expect(bundled.stderr).toBe("");
    expect(bundled.code).toBe(0);
    expect(bundled.stdout).toMatch(/^Wrote weather\.mcpb \(\d+ KB\): mcpkit weather [\d.]+, 2 tools, 1 prompt/);
    const unpacked = join(dir, "weather");
    await promisify(execFile)(process.execPath, [MCPB, "unpack", join(work, "weather.mcpb"), unpacked]);
    const called = await mcpkit([
      "call",
      "get_current_weather",
      "city=Paris",
      "--",
      process.execPath,
      join(unpacked, "server/index.js"),
    ]);
    expect(called.stdout).toMatch(/Paris.*\n.*°F/);
  }, 180_000);

  it("serves weather, and says what serving or bundling github needs", async () => {
    const served = await mcpkit([
      "call",
      "get_forecast",
      "city=Paris",
      "--",
      join(prefix, "bin", "mcpkit"),
      "serve",
      "weather",
    ]);
    expect(served.code, served.stderr).toBe(0);
    expect(served.stdout).toMatch(/Paris/);

    const bundled = await mcpkit(["bundle", "github", "--out", "github.mcpb"]);
    expect(bundled.code).toBe(2);
    expect(bundled.stderr).toBe(
      "mcpkit: bundle github needs the @octokit/rest package, which is not installed: npm install --global @octokit/rest beside a global mcpkit, npm install @octokit/rest in a project; then bundle again\n",
    );
    // The same advice as bundle's: a global mcpkit does not see a package installed here.
    const serve = await mcpkit(["serve", "github", "--stdio"]);
    expect(serve.code).toBe(1);
    expect(serve.stderr).toContain(
      "serve github needs the @octokit/rest package, which is not installed: npm install --global @octokit/rest beside a global mcpkit",
    );
  }, 180_000);

  it("bundles and serves github once @octokit/rest is installed as the message says", async () => {
    await run(
      "npm",
      ["install", "--global", "--prefix", prefix, "@octokit/rest@22", "--prefer-offline", "--no-audit", "--no-fund"],
      dir,
    );
    const bundled = await mcpkit(["bundle", "github", "--out", "github.mcpb"]);
    expect(bundled.stderr).toBe("");
    expect(bundled.stdout).toMatch(/^Wrote github\.mcpb \(\d+ KB\): mcpkit GitHub [\d.]+, 8 tools/);
    const listed = await mcpkit(["call", "tools", "--", join(prefix, "bin", "mcpkit"), "serve", "github"]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/^search_repositories\(/m);
  }, 180_000);
});
