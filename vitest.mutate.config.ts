import { defineConfig } from "vitest/config";
import { chosenGroups } from "./scripts/mutate-groups.mjs";
import base from "./vitest.config.js";

/**
 * The vitest config `npm run mutate` (Stryker) runs: the project's, narrowed to the test
 * files of the chosen groups (MUTATE), and without the global setup that rebuilds dist
 * (Stryker's sandbox holds instrumented sources, which must never be built).
 */
const tests = [...new Set(chosenGroups().flatMap((group) => group.tests))];

export default defineConfig({
  ...base,
  test: { ...base.test, include: tests, globalSetup: [] },
});
