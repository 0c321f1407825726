import { execFile } from "node:child_process";
import { copyFileSync, existsSync, linkSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requireBuild } from "../cli-call/helpers.js";
import { FIXTURES, mcpkit, REPO_ROOT, scratch } from "./helpers.js";

// `mcpkit bundle`: what it says went in (--dry-run says it and writes nothing), secrets
// left out end to end, the bundle's name after the module and its author from package.json
// or git, never the account running it.

const MCPB = join(REPO_ROOT, "node_modules/@anthropic-ai/mcpb/dist/cli/cli.js");
let space: ReturnType<typeof scratch>;
let project = "";
/** No user or system git configuration: only what a test sets. */
let env: NodeJS.ProcessEnv;

beforeAll(() => {
  requireBuild();
  space = scratch("bundle-names");
  project = join(space.dir, "tools");
  mkdirSync(project);
  mkdirSync(join(space.dir, "home"));
  env = { ...process.env, HOME: join(space.dir, "home"), GIT_CONFIG_NOSYSTEM: "1", NO_COLOR: "1" };
  symlinkSync(join(REPO_ROOT, "node_modules"), join(project, "node_modules"));
  writeFileSync(join(project, "package.json"), '{ "name": "@me/tools", "version": "1.0.0", "author": "Ada" }\n');
  copyFileSync(join(FIXTURES, "env-server.mjs"), join(project, "server.mjs"));
  copyFileSync(join(FIXTURES, "env-server.mjs"), join(project, "admin.mjs"));
});
afterAll(() => space.remove());

const bundle = (args: string[], cwd = project) => mcpkit(["bundle", ...args], { cwd, env, timeout: 60_000 });

async function manifestOf(file: string): Promise<Record<string, unknown>> {
  const into = join(space.dir, `unpacked-${Math.random().toString(36).slice(2)}`);
  await promisify(execFile)(process.execPath, [MCPB, "unpack", file, into]);
  return JSON.parse(readFileSync(join(into, "manifest.json"), "utf8"));
}

describe("mcpkit bundle --dry-run", () => {
  it("builds and starts it, lists what it would hold, and writes nothing", async () => {
    const run = await bundle(["server.mjs", "--dry-run"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^Would write tools-1\.0\.0\.mcpb \(\d+ KB\): env-server 1\.0\.0, 2 tools, 0 prompts\n/);
    expect(run.stdout).toContain("It would hold:\n  manifest.json ");
    expect(run.stdout).toContain("  server/index.js ");
    expect(existsSync(join(project, "tools-1.0.0.mcpb"))).toBe(false);
  }, 60_000);

  it("leaves out a folder's secrets and a hard link to a file outside, says so, and lists only what went in", async () => {
    const data = join(project, "data");
    mkdirSync(data);
    writeFileSync(join(data, "cities.json"), "[]");
    writeFileSync(join(data, ".envrc"), "export TOKEN=x\n");
    writeFileSync(join(space.dir, "home/.bash_history"), "export TOKEN=x\n");
    linkSync(join(space.dir, "home/.bash_history"), join(data, "notes.txt"));
    const run = await bundle(["server.mjs", "--include", "data", "--dry-run"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain("  data/.envrc: direnv's file: it exports secrets into the shell\n");
    expect(run.stderr).toContain(
      `  data/notes.txt: a hard link: the same file has 2 names, and not all of them are inside ${project}\n`,
    );
    expect(run.stdout).toMatch(/ {2}server\/data\/cities\.json 2 B \(--include\)\n/);
    expect(run.stdout).not.toContain("notes.txt");
    expect(run.stdout).not.toContain(".envrc");
  }, 60_000);
});

describe("the bundle's name and author", () => {
  it("names two modules of one folder apart: neither overwrites the other's bundle", async () => {
    expect((await bundle(["server.mjs"])).code).toBe(0);
    const admin = await bundle(["admin.mjs"]);
    expect(admin.code, admin.stderr).toBe(0);
    expect(admin.stdout).toMatch(/^Wrote tools-admin-1\.0\.0\.mcpb/);
    const [server, other] = await Promise.all([
      manifestOf(join(project, "tools-1.0.0.mcpb")),
      manifestOf(join(project, "tools-admin-1.0.0.mcpb")),
    ]);
    expect(server).toMatchObject({ name: "tools", author: { name: "Ada" } });
    expect(other).toMatchObject({ name: "tools-admin", author: { name: "Ada" } });
  }, 120_000);

  it("takes the author from git when package.json names none, and refuses to make one up", async () => {
    const bare = join(space.dir, "bare");
    mkdirSync(bare);
    symlinkSync(join(REPO_ROOT, "node_modules"), join(bare, "node_modules"));
    writeFileSync(join(bare, "package.json"), '{ "name": "bare", "version": "1.0.0" }\n');
    copyFileSync(join(FIXTURES, "env-server.mjs"), join(bare, "server.mjs"));
    const refused = await bundle(["server.mjs"], bare);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      'A bundle names its author: add "author": "Your Name <you@example.com>" to package.json, or set git config user.name',
    );
    expect(existsSync(join(bare, "bare-1.0.0.mcpb"))).toBe(false);
    const git = (args: string[]) => promisify(execFile)("git", args, { cwd: bare, env });
    await git(["init", "-q"]);
    await git(["config", "user.name", "Grace Hopper"]);
    await git(["config", "user.email", "grace@example.com"]);
    const run = await bundle(["server.mjs"], bare);
    expect(run.code, run.stderr).toBe(0);
    expect(await manifestOf(join(bare, "bare-1.0.0.mcpb"))).toMatchObject({
      author: { name: "Grace Hopper", email: "grace@example.com" },
    });
  }, 120_000);
});
