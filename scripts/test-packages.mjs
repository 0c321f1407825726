// What only the tests (and benchmarks) use and is too big to be a dependency of the
// workspace: Bun, Deno and workerd, the other runtimes the tests run mcpkit on (~340 MB),
// GitHub's REST description from @octokit/openapi (~390 MB, for the OpenAPI tests), and the
// interop peers whose dependencies want a newer Node.js than the workspace's.
// Installed on first use from the npm registry into node_modules/.cache/mcpkit-runtimes,
// as node-runtime.mjs installs other Node.js majors, so `npm install && npm start` fetches
// none of it. Run as a script, it installs them all and prints where:
// `node scripts/test-packages.mjs`.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { cachedInstall } from "./node-runtime.mjs";

/** The runtimes the tests run; each ships its binary in an optional package per platform. */
export const TEST_RUNTIMES = { bun: "1.4.5", deno: "2.9.5", workerd: "1.20261023.1" };

/** Every package installed on first use, with its version. */
export const TEST_PACKAGES = {
  ...TEST_RUNTIMES,
  "@octokit/openapi": "23.0.2",
  // Interop peers that want a newer Node.js than 20 for some of what they bring (the
  // Inspector runs on the Node 24 of the conformance suite).
  "@modelcontextprotocol/inspector": "2.12.0",
  fastmcp: "4.20.16",
};

/**
 * The folder whose node_modules holds `name` (and, for a runtime, its platform package),
 * installed on first use.
 * @param {keyof typeof TEST_PACKAGES} name
 * @returns {string}
 */
export function runtimeHome(name) {
  const version = TEST_PACKAGES[name];
  return cachedInstall(`${name.replace("/", "+")}-${version}`, `${name}@${version}`, (home) =>
    existsSync(join(home, "node_modules", name, "package.json")),
  );
}

/**
 * The installed folder of a package only the tests use (installed on first use).
 * @param {keyof typeof TEST_PACKAGES} name
 * @returns {string}
 */
export const testPackageDir = (name) => join(runtimeHome(name), "node_modules", name);

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  let failed = false;
  for (const runtime of /** @type {(keyof typeof TEST_PACKAGES)[]} */ (Object.keys(TEST_PACKAGES))) {
    try {
      process.stdout.write(`${runtime}: ${runtimeHome(runtime)}\n`);
    } catch (error) {
      process.stderr.write(`${runtime}: ${error instanceof Error ? error.message : error}\n`);
      failed = true;
    }
  }
  process.exitCode = failed ? 1 : 0;
}
