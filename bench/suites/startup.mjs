// CLI start-up: the wall time of whole `mcpkit` commands, from spawn to exit, against bare
// Node starting and exiting. Each command runs many times, the commands alternating (their
// order rotates every round), so the machine's drift hits all of them; reported as the
// median with min–max and the mean's 95% confidence interval.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { meanCI, summarize } from "../lib/stats.mjs";

const BIN = fileURLToPath(new URL("../../packages/cli/bin/mcpkit.js", import.meta.url));
const node = process.execPath;

/** What is timed: a label, the command line, and what its output must contain. */
export const STARTUP_COMMANDS = [
  { key: "node", label: 'bare Node (`node -e ""`)', argv: [node, "-e", ""] },
  { key: "version", label: "`mcpkit --version`", argv: [node, BIN, "--version"], expect: "0." },
  { key: "help", label: "`mcpkit --help`", argv: [node, BIN, "--help"], expect: "Usage" },
  { key: "callHelp", label: "`mcpkit call --help`", argv: [node, BIN, "call", "--help"], expect: "Usage" },
  { key: "serveHelp", label: "`mcpkit serve --help`", argv: [node, BIN, "serve", "--help"], expect: "Usage" },
  {
    key: "call",
    label: "`mcpkit call echo text=hi -- mcpkit serve everything --stdio`",
    argv: [node, BIN, "call", "echo", "text=hi", "--", node, BIN, "serve", "everything", "--stdio"],
    expect: "hi",
  },
];

function time({ argv, expect }) {
  const t0 = performance.now();
  const run = spawnSync(argv[0], argv.slice(1), { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  const ms = performance.now() - t0;
  if (run.status !== 0 || (expect && !run.stdout.includes(expect))) {
    throw new Error(`${argv.slice(1).join(" ")} failed (${run.status}): ${run.stdout}${run.stderr}`);
  }
  return ms;
}

/** @param {{ config: object, log: (line: string) => void }} context */
export async function startupSuite({ config, log }) {
  const runs = config.startup.runs;
  const samples = Object.fromEntries(STARTUP_COMMANDS.map((c) => [c.key, []]));
  for (const command of STARTUP_COMMANDS) time(command); // warms the file cache
  for (let round = 0; round < runs; round++) {
    for (let i = 0; i < STARTUP_COMMANDS.length; i++) {
      const command = STARTUP_COMMANDS[(i + round) % STARTUP_COMMANDS.length];
      samples[command.key].push(time(command));
    }
  }
  const out = {};
  for (const command of STARTUP_COMMANDS) {
    out[command.key] = { ms: summarize(samples[command.key]), msCI: meanCI(samples[command.key]) };
  }
  log(
    `startup (${runs} runs each): ${STARTUP_COMMANDS.map((c) => `${c.key} ${Math.round(out[c.key].ms.median)} ms`).join(", ")}`,
  );
  return out;
}
