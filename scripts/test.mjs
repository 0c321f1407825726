#!/usr/bin/env node
// The whole test suite: lint and format, type checks, build, vitest, the library's
// transport, client and OAuth tests again on the other supported Node majors, and the
// official conformance suite. Ends with one line, "N passed, N failed".
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { runAuthorizationConformance, runConformance } from "./conformance.mjs";
import { nodeRuntime } from "./node-runtime.mjs";
import { ensureSystemTools } from "./system-tools.mjs";
import { runtimeHome, TEST_PACKAGES } from "./test-packages.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
/** A dev tool's launcher, run by this Node (node_modules/.bin holds shell shims on Windows). */
const launcher = (file) => join(root, "node_modules", file);
/** The environment for a run on `node`: its folder first on PATH, so every `node` a test spawns is that one. */
const envFor = (node) => ({ ...process.env, PATH: [dirname(node), process.env.PATH].join(delimiter) });
const env = envFor(process.execPath);
process.stdout.write(`Testing on Node ${process.version} (${process.execPath})\n`);
let passed = 0;
let failed = 0;
/** What failed, named again just before the last line: a long log's tail is what gets read. */
const failures = [];

function step(title, command, args, stepEnv = env) {
  process.stdout.write(`\n=== ${title}\n`);
  const started = Date.now();
  const run = spawnSync(command, args, { cwd: root, stdio: "inherit", env: stepEnv });
  const ok = run.status === 0;
  if (!ok) failures.push(title);
  process.stdout.write(`=== ${title}: ${ok ? "ok" : "FAILED"} (${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
  return ok;
}

function count(ok) {
  if (ok) passed++;
  else failed++;
}

/** Runs vitest on `node` (over the files matching `filters`, or all) and counts each test. */
function vitest(title, node, filters = []) {
  const out = mkdtempSync(join(tmpdir(), "mcpkit-vitest-"));
  const report = join(out, "report.json");
  const ok = step(
    title,
    node,
    [
      launcher("vitest/vitest.mjs"),
      "run",
      "--reporter=default",
      "--reporter=json",
      `--outputFile.json=${report}`,
      ...filters,
    ],
    envFor(node),
  );
  const before = failed;
  try {
    const results = JSON.parse(readFileSync(report, "utf8"));
    passed += results.numPassedTests;
    failed += results.numFailedTests + (results.numPendingTests ?? 0) + (results.numTodoTests ?? 0);
    // A file that failed to load has no tests to count; count the file.
    for (const file of results.testResults ?? []) {
      const where = relative(root, file.name);
      if (file.status === "failed" && file.assertionResults.length === 0) {
        failed++;
        failures.push(`${title}: ${where} did not load`);
      }
      for (const test of file.assertionResults)
        if (test.status !== "passed") failures.push(`${title}: ${where} > ${test.fullName} (${test.status})`);
    }
  } catch {
    failed++;
  }
  if (!ok && failed === before) failed++;
  rmSync(out, { recursive: true, force: true });
}

const biome = launcher("@biomejs/biome/bin/biome");
const tsc = launcher("typescript/bin/tsc");
const depcruise = launcher("dependency-cruiser/bin/dependency-cruise.mjs");
count(step("lint and format (biome)", process.execPath, [biome, "check", "."]));
count(
  step("dependency rules (dependency-cruiser)", process.execPath, [
    depcruise,
    // Every package's sources (dependency-cruiser expands the pattern itself, on every OS).
    "packages/*/src",
    "--config",
    ".dependency-cruiser.cjs",
  ]),
);
count(
  step("build (tsc -b)", process.execPath, [
    tsc,
    "-b",
    "packages/mcpkit",
    "packages/servers",
    "packages/cli",
    "packages/redis",
    "packages/create-mcpkit",
  ]),
);
count(step("bundle mcpkit's entry points (esbuild)", process.execPath, ["scripts/bundle.mjs"]));
count(
  step("the inspector's page: type-check and build (esbuild)", process.execPath, [
    "packages/cli/scripts/build-ui.mjs",
    "--check",
    "--report",
  ]),
);
process.stdout.write(
  "\n=== redis-server, nginx, chromium, zsh and fish (the cluster, inspector and completion tests)\n",
);
const systemTools = ensureSystemTools();
if (!systemTools) failures.push("installing redis-server, nginx, chromium, zsh and fish");
count(systemTools);
count(step("type-check tests", process.execPath, [tsc, "-p", "tsconfig.test.json"]));

// Bun, Deno, workerd and GitHub's OpenAPI description are no dependencies of the
// workspace: installed here on first use (into node_modules/.cache), for the tests that use them.
process.stdout.write("\n=== bun, deno, workerd and @octokit/openapi (the runtime and OpenAPI tests)\n");
for (const runtime of Object.keys(TEST_PACKAGES)) {
  try {
    process.stdout.write(`  ${runtime}: ${runtimeHome(runtime)}\n`);
    passed++;
  } catch (error) {
    process.stdout.write(`  ${runtime}: FAILED\n${error.message}\n`);
    failures.push(`installing ${runtime}`);
    failed++;
  }
}

vitest("vitest", process.execPath);

// Node 20, 22 and 24 are supported: the other two majors run the tests of what depends on
// the runtime — the library's stdio, HTTP, client and OAuth code, the authorization server,
// the official SDKs against it, a served stdio wire, and the SQL policy on the engine that
// Node.js loads (node:sqlite on 22 and 24) — each installed on demand for this platform.
// Path prefixes, not bare words: "http" alone also ran the browser and CLI tests twice more.
const MATRIX = [20, 22, 24].filter((major) => major !== Number(process.versions.node.split(".")[0]));
const RUNTIME_TESTS = [
  "packages/mcpkit/test/stdio",
  "packages/mcpkit/test/http-",
  "packages/mcpkit/test/modern/http",
  "packages/mcpkit/test/client",
  "packages/mcpkit/test/auth",
  "packages/mcpkit/test/address-guard",
  "test/auth/",
  "test/authorization-server/",
  "test/interop/sdk-",
  "test/interop/mcpkit-client-to-",
  "test/cli/serve-stdio-wire",
  "test/workspace/sql-policy",
];
for (const major of MATRIX) {
  let node;
  try {
    node = nodeRuntime(major);
  } catch (error) {
    process.stdout.write(`\n=== Node ${major}: FAILED, not installed\n${error.message}\n`);
    failures.push(`installing Node ${major}`);
    failed++;
    continue;
  }
  vitest(`Node ${major}: the runtime-dependent tests (${node})`, node, RUNTIME_TESTS);
}

// The official conformance suite: each scored scenario (server and client, auth included)
// counts as one test.
for (const revision of ["2025-11-25", "2026-07-28"]) {
  process.stdout.write(`\n=== conformance ${revision}\n`);
  const started = Date.now();
  let results;
  try {
    results = await runConformance(revision);
  } catch (error) {
    process.stdout.write(`=== conformance ${revision}: FAILED\n${error.message}\n`);
    failures.push(`conformance ${revision}`);
    failed++;
    continue;
  }
  for (const r of results) {
    if (r.ok) passed++;
    else {
      failed++;
      failures.push(`conformance ${revision}: ${r.side} ${r.scenario}`);
    }
    process.stdout.write(
      `${r.ok ? "  ok  " : "  FAIL"} ${r.side} ${r.scenario}${r.ok ? "" : `\n        ${r.failures.join("\n        ")}`}\n`,
    );
  }
  const ok = results.filter((r) => r.ok).length;
  process.stdout.write(
    `=== conformance ${revision}: ${ok}/${results.length} scored scenarios pass (${((Date.now() - started) / 1000).toFixed(1)} s)\n`,
  );
}

// The authorization server scenarios, against `mcpkit serve everything --authorization-server dev`.
{
  process.stdout.write("\n=== conformance authorization server\n");
  const started = Date.now();
  try {
    const results = await runAuthorizationConformance();
    for (const r of results) {
      if (r.ok) passed++;
      else {
        failed++;
        failures.push(`conformance authorization server: ${r.side} ${r.scenario}`);
      }
      process.stdout.write(
        `${r.ok ? "  ok  " : "  FAIL"} ${r.side} ${r.scenario}${r.ok ? "" : `\n        ${r.failures.join("\n        ")}`}\n`,
      );
    }
    const ok = results.filter((r) => r.ok).length;
    process.stdout.write(
      `=== conformance authorization server: ${ok}/${results.length} scenarios pass (${((Date.now() - started) / 1000).toFixed(1)} s)\n`,
    );
  } catch (error) {
    process.stdout.write(`=== conformance authorization server: FAILED\n${error.message}\n`);
    failures.push("conformance authorization server");
    failed++;
  }
}

if (failures.length > 0) process.stdout.write(`\nWhat failed:\n${failures.map((f) => `  ${f}\n`).join("")}`);
process.stdout.write(`\n${passed} passed, ${failed} failed\n`);
process.exitCode = failed === 0 ? 0 : 1;
