import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * vitest globalSetup: the process tests run the built CLI (packages/cli/dist) and library
 * (packages/mcpkit/dist), so a source edit must reach dist before they start. Rebuilds
 * (tsc -b) when any source file is newer than its package's build info, mcpkit's bundles
 * when one of its source files is newer than they are, and the inspector's page when one
 * of its files is newer than the built page; a fresh build costs one stat per file.
 */
const ROOT = fileURLToPath(new URL("..", import.meta.url));
const PACKAGES = ["packages/mcpkit", "packages/servers", "packages/cli", "packages/redis", "packages/create-mcpkit"];

/** The page's sources: its own, and the contract it shares with the backend. */
const UI_SOURCES = [join(ROOT, "packages/cli/src/inspector/ui"), join(ROOT, "packages/cli/src/inspector/contract")];
const UI_BUILT = join(ROOT, "packages/cli/dist/inspector-ui/app.js");

function newestSource(dir: string, matches = (name: string) => name.endsWith(".ts")): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path, matches));
    else if (matches(entry.name) && !entry.name.endsWith(".test.ts")) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

function pageIsStale(): boolean {
  return (
    !existsSync(UI_BUILT) ||
    Math.max(...UI_SOURCES.map((dir) => newestSource(dir, (name) => /\.(tsx?|css|html)$/.test(name)))) >
      statSync(UI_BUILT).mtimeMs
  );
}

export function staleBuilds(): string[] {
  return PACKAGES.filter((pkg) => {
    const info = join(ROOT, pkg, "tsconfig.tsbuildinfo");
    return !existsSync(info) || newestSource(join(ROOT, pkg, "src")) > statSync(info).mtimeMs;
  });
}

export default async function setup(): Promise<void> {
  if (pageIsStale())
    execFileSync(process.execPath, [join(ROOT, "packages/cli/scripts/build-ui.mjs")], { cwd: ROOT, stdio: "inherit" });
  const stale = staleBuilds();
  if (stale.length > 0) {
    execFileSync(process.execPath, [join(ROOT, "node_modules/typescript/bin/tsc"), "-b", ...PACKAGES], {
      cwd: ROOT,
      stdio: "inherit",
    });
    // tsc -b leaves the build info alone when an edit changed no output; mark it fresh.
    const now = new Date();
    for (const pkg of stale) utimesSync(join(ROOT, pkg, "tsconfig.tsbuildinfo"), now, now);
  }
  // mcpkit's JavaScript is its bundles (scripts/bundle.mjs), which tsc -b does not write.
  const { bundle, bundleIsStale } = await import("../scripts/bundle.mjs");
  if (bundleIsStale()) await bundle();
}
