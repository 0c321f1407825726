// @ts-check
import { chosenGroups } from "./scripts/mutate-groups.mjs";

/**
 * `npm run mutate`: Stryker over the security-critical modules (scripts/mutate-groups.mjs),
 * each mutant run against only the tests that cover it. `MUTATE=auth-client npm run mutate`
 * runs one group (comma-separate several). Not part of `npm test`: a full run takes long.
 * @type {import("@stryker-mutator/api/core").PartialStrykerOptions}
 */
const run = process.env.MUTATE ? process.env.MUTATE.replaceAll(",", "+") : "all";

export default {
  testRunner: "vitest",
  vitest: { configFile: "vitest.mutate.config.ts", related: false },
  coverageAnalysis: "perTest",
  mutate: chosenGroups().flatMap((group) => group.mutate),
  // Two cores shared with everything else: one test runner at a time.
  concurrency: 1,
  timeoutMS: 10_000,
  timeoutFactor: 2,
  reporters: ["clear-text", "progress", "html", "json"],
  htmlReporter: { fileName: `reports/mutation/${run}.html` },
  jsonReporter: { fileName: `reports/mutation/${run}.json` },
  clearTextReporter: { allowColor: false, logTests: false, reportScoreTable: true },
  tempDirName: ".stryker-tmp",
  cleanTempDir: true,
  ignorePatterns: ["bench", "examples", "docs", "reports", "coverage", "test-results"],
  thresholds: { high: 90, low: 75, break: null },
};
