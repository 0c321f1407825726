import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

/**
 * Workspace packages resolve to their TypeScript sources (the "source" entry of each
 * export), so tests never run a stale build. Aliases, not resolve conditions: a condition
 * would also reach third-party packages that publish TypeScript under "source".
 */
function sourceAliases(pkgDir: string) {
  const pkg = JSON.parse(readFileSync(new URL(`${pkgDir}/package.json`, import.meta.url), "utf8")) as {
    name: string;
    exports: Record<string, string | { source?: string }>;
  };
  return Object.entries(pkg.exports).flatMap(([subpath, target]) => {
    if (typeof target !== "object" || !target.source) return [];
    const name = subpath === "." ? pkg.name : `${pkg.name}/${subpath.slice(2)}`;
    const file = fileURLToPath(new URL(`${pkgDir}/${target.source.slice(2)}`, import.meta.url));
    return [{ find: new RegExp(`^${name.replace(/[/.]/g, "\\$&")}$`), replacement: file }];
  });
}

export default defineConfig({
  resolve: {
    alias: [
      ...sourceAliases("./packages/mcpkit"),
      ...sourceAliases("./packages/servers"),
      ...sourceAliases("./packages/cli"),
      ...sourceAliases("./packages/redis"),
    ],
  },
  test: {
    // The process tests run packages/cli/dist: rebuilt first when a source is newer.
    globalSetup: ["./test/fresh-build.ts"],
    include: ["packages/*/src/**/*.test.ts", "packages/*/test/**/*.test.ts", "test/**/*.test.ts"],
    pool: "forks",
    maxWorkers: 2,
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
