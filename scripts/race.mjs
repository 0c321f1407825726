#!/usr/bin/env node
// The workspace sandbox's symlink-swap race, long: 30 s with 4 concurrent readers (the
// test in `npm test` runs 3 s). Prints its figures; fails on any read outside the root.
// Seconds and readers may be given: `npm run race -- 60 8`.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const [seconds = "30", readers = "4"] = process.argv.slice(2);
const run = spawnSync(
  process.execPath,
  ["node_modules/vitest/vitest.mjs", "run", "--maxWorkers=1", "test/workspace/symlink-race.test.ts"],
  { cwd: root, stdio: "inherit", env: { ...process.env, MCPKIT_RACE_SECONDS: seconds, MCPKIT_RACE_READERS: readers } },
);
process.exit(run.status ?? 1);
