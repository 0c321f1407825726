// Bun, Deno and workerd, the other runtimes the tests run mcpkit on, installed on first use
// from the npm registry into node_modules/.cache/mcpkit-runtimes, as node-runtime.mjs
// installs other Node.js majors. They are no dependency of the workspace: `npm install &&
// npm start` never fetches the ~340 MB of runtimes only the tests run. Run as a script, it
// installs them all and prints where: `node scripts/test-runtimes.mjs`.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { cachedInstall } from "./node-runtime.mjs";

/** The versions the tests run; each ships its binary in an optional package per platform. */
export const TEST_RUNTIMES = { bun: "1.4.5", deno: "2.9.5", workerd: "1.20261023.1" };

/**
 * The folder whose node_modules holds `runtime` and its platform package, installed on first use.
 * @param {keyof typeof TEST_RUNTIMES} runtime
 * @returns {string}
 */
export function runtimeHome(runtime) {
  const version = TEST_RUNTIMES[runtime];
  return cachedInstall(`${runtime}-${version}`, `${runtime}@${version}`, (home) =>
    existsSync(join(home, "node_modules", runtime, "package.json")),
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  let failed = false;
  for (const runtime of /** @type {(keyof typeof TEST_RUNTIMES)[]} */ (Object.keys(TEST_RUNTIMES))) {
    try {
      process.stdout.write(`${runtime}: ${runtimeHome(runtime)}\n`);
    } catch (error) {
      process.stderr.write(`${runtime}: ${error instanceof Error ? error.message : error}\n`);
      failed = true;
    }
  }
  process.exitCode = failed ? 1 : 0;
}
