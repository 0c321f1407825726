#!/usr/bin/env node
// The long fuzz (issue #17): the suite in test/fuzz, run with MCPKIT_FUZZ=long over many
// frames, then its figures. `npm test` runs the same suite as a bounded, seeded slice.
//
//   npm run fuzz                                   1,000,000 stdio frames, 200,000 HTTP (each era), 200,000 in memory
//   npm run fuzz -- --stdio 50000 --http 5000 --memory 20000 --seed 42
//
// A failure prints the seed (MCPKIT_FUZZ_SEED=… reproduces it) and the shrunk frames.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const args = process.argv.slice(2);
const flag = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? fallback : args[i + 1];
};
const seed = flag("seed", String(Math.floor(Math.random() * 2 ** 31)));
const dir = mkdtempSync(join(tmpdir(), "mcpkit-fuzz-"));
const report = join(dir, "figures.jsonl");
const env = {
  ...process.env,
  MCPKIT_FUZZ: "long",
  MCPKIT_FUZZ_SEED: seed,
  MCPKIT_FUZZ_REPORT: report,
  MCPKIT_FUZZ_STDIO_FRAMES: flag("stdio", "1000000"),
  MCPKIT_FUZZ_HTTP_FRAMES: flag("http", "200000"),
  MCPKIT_FUZZ_MEMORY_FRAMES: flag("memory", "200000"),
};
process.stdout.write(`mcpkit fuzz, seed ${seed}\n`);
const files = [
  "test/fuzz/stdio.test.ts",
  "test/fuzz/http.test.ts",
  "test/fuzz/raw-http.test.ts",
  "test/fuzz/memory.test.ts",
];
const run = spawnSync(
  process.execPath,
  [join(root, "node_modules/vitest/vitest.mjs"), "run", "--maxWorkers=1", ...files],
  { cwd: root, env, stdio: "inherit" },
);

let lines = [];
try {
  lines = readFileSync(report, "utf8")
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l));
} catch {
  // No transport finished.
}
rmSync(dir, { recursive: true, force: true });
const mib = (bytes) => (bytes / 1024 / 1024).toFixed(1);
process.stdout.write(
  "\ntransport        frames     MiB   valid answered   s     frames/s  heap MiB before→after  errors by code / HTTP statuses\n",
);
for (const f of lines) {
  const seconds = f.ms / 1000;
  process.stdout.write(
    `${f.transport.padEnd(16)} ${String(f.frames).padStart(8)} ${mib(f.bytes).padStart(7)} ${String(f.valid).padStart(7)} ${String(f.answered).padStart(8)} ${seconds.toFixed(1).padStart(6)} ${String(Math.round(f.frames / seconds)).padStart(9)}  ${f.memoryBeforeMiB.toFixed(1)}→${f.memoryAfterMiB.toFixed(1)}  ${JSON.stringify(f.errors)}${f.statuses ? ` ${JSON.stringify(f.statuses)}` : ""}\n`,
  );
}
process.exit(run.status ?? 1);
