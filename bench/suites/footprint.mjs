// Footprint: what each package weighs as published (npm pack: the tarball, its unpacked
// size, its files) and installed with its production dependencies into an empty project;
// and how long `npm install` of the packed mcpkit takes there with a warm npm cache.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { meanCI, summarize } from "../lib/stats.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const QUIET = ["--no-audit", "--no-fund", "--loglevel=error"];

/** The workspace's packages, and the tarballs each needs installed beside it (its workspace peers). */
const PACKAGES = [
  { dir: "packages/mcpkit", with: [] },
  { dir: "packages/redis", with: ["packages/mcpkit"] },
  { dir: "packages/servers", with: ["packages/mcpkit"] },
  { dir: "packages/cli", with: ["packages/mcpkit", "packages/servers"] },
];

/** Bytes and files under a directory (apparent sizes, as `du -sb` counts them). */
function du(dir) {
  let bytes = 0;
  let files = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      const sub = du(path);
      bytes += sub.bytes;
      files += sub.files;
    } else if (entry.isFile()) {
      bytes += statSync(path).size;
      files++;
    }
  }
  return { bytes, files };
}

const packJson = (args, cwd) =>
  JSON.parse(execFileSync(npm, ["pack", "--json", ...args], { cwd, encoding: "utf8" }))[0];

/** An empty project with the given tarballs installed (production dependencies only): ms taken. */
function install(tarballs, dir) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "package.json"), '{ "name": "footprint-probe", "version": "1.0.0", "private": true }\n');
  const t0 = performance.now();
  execFileSync(npm, ["install", "--omit=dev", "--prefer-offline", ...QUIET, ...tarballs], {
    cwd: dir,
    stdio: "ignore",
  });
  return performance.now() - t0;
}

/** @param {{ config: object, log: (line: string) => void }} context */
export async function footprintSuite({ config, log }) {
  const work = mkdtempSync(join(tmpdir(), "mcpkit-bench-footprint-"));
  try {
    const tarballs = {};
    const names = {};
    const packages = {};
    for (const pkg of PACKAGES) {
      const dry = packJson(["--dry-run"], join(root, pkg.dir));
      const packed = packJson(["--pack-destination", work], join(root, pkg.dir));
      tarballs[pkg.dir] = join(work, packed.filename);
      names[pkg.dir] = dry.name;
      packages[dry.name] = {
        version: dry.version,
        tarballBytes: dry.size,
        unpackedBytes: dry.unpackedSize,
        files: dry.entryCount,
      };
    }
    for (const [i, pkg] of PACKAGES.entries()) {
      const name = names[pkg.dir];
      const dir = join(work, `installed-${i}`);
      install(
        [...pkg.with, pkg.dir].map((d) => tarballs[d]),
        dir,
      );
      const modules = join(dir, "node_modules");
      const installed = du(modules);
      const dependencies = readdirSync(modules).flatMap((entry) =>
        entry.startsWith("@")
          ? readdirSync(join(modules, entry)).map((sub) => `${entry}/${sub}`)
          : entry.startsWith(".")
            ? []
            : [entry],
      );
      packages[name].installedBytes = installed.bytes;
      packages[name].installedFiles = installed.files;
      packages[name].installedPackages = dependencies.length;
      // The heaviest of what came with it (hoisted packages; nested copies count towards their parent).
      packages[name].largest = dependencies
        .map((dep) => [dep, du(join(modules, dep)).bytes])
        .sort((a, b) => b[1] - a[1])
        .slice(0, 4);
      log(
        `footprint ${name}: ${(installed.bytes / 2 ** 20).toFixed(1)} MiB installed, ${dependencies.length} packages`,
      );
    }
    // The first install above warmed npm's cache with mcpkit's dependencies.
    const times = [];
    for (let i = 0; i < config.footprint.installs; i++) {
      const dir = join(work, `timed-${i}`);
      times.push(install([tarballs["packages/mcpkit"]], dir));
      rmSync(dir, { recursive: true, force: true });
    }
    log(`footprint: npm install of the packed mcpkit ${times.map((t) => Math.round(t)).join(", ")} ms`);
    return { packages, installMs: summarize(times), installMsCI: meanCI(times) };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
