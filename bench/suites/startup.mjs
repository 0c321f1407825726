// CLI start-up: the wall time of whole `mcpkit` commands, from spawn to exit, against bare
// Node starting and exiting, and the CPU time they used (user + system of the command and
// the processes it waited for, from bash's `times`: it moves far less with the machine's
// load than wall time does). Each command runs many times, the commands alternating (their
// order rotates every round), so drift hits all of them; reported as the median with
// min–max and the mean's 95% confidence interval.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { meanCI, summarize } from "../lib/stats.mjs";
import { coldStart } from "../lib/stdio-client.mjs";

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

// bash runs the command, then prints its children's user and system time (getrusage).
const WRAPPER = '"$@"; status=$?; times >&2; exit $status';
const seconds = (m) => Number(m[1]) * 60 + Number(m[2]);

/** One run: wall ms (bash's own start, a millisecond or two, included) and CPU ms. */
function time({ argv, expect }) {
  const t0 = performance.now();
  const run = spawnSync("bash", ["-c", WRAPPER, "bash", ...argv], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  const ms = performance.now() - t0;
  if (run.error) throw new Error(`bash is needed to time commands: ${run.error.message}`);
  if (run.status !== 0 || (expect && !run.stdout.includes(expect))) {
    throw new Error(`${argv.slice(1).join(" ")} failed (${run.status}): ${run.stdout}${run.stderr}`);
  }
  const children = run.stderr.trimEnd().split("\n").at(-1);
  const [user, system] = [...children.matchAll(/(\d+)m([\d.]+)s/g)].map(seconds);
  return { ms, cpuMs: (user + system) * 1000 };
}

/** @param {{ config: object, log: (line: string) => void }} context */
export async function startupSuite({ config, log }) {
  const runs = config.startup.runs;
  const samples = Object.fromEntries(STARTUP_COMMANDS.map((c) => [c.key, []]));
  const cpu = Object.fromEntries(STARTUP_COMMANDS.map((c) => [c.key, []]));
  for (const command of STARTUP_COMMANDS) time(command); // warms the file cache
  // The server half of the one call: spawn to the answer of its first tools/list.
  const served = [];
  for (let round = 0; round < runs; round++) {
    for (let i = 0; i < STARTUP_COMMANDS.length; i++) {
      const command = STARTUP_COMMANDS[(i + round) % STARTUP_COMMANDS.length];
      const { ms, cpuMs } = time(command);
      samples[command.key].push(ms);
      cpu[command.key].push(cpuMs);
    }
    served.push(await coldStart(BIN, { args: ["serve", "everything", "--stdio"] }));
  }
  const out = {};
  for (const command of STARTUP_COMMANDS) {
    out[command.key] = {
      ms: summarize(samples[command.key]),
      msCI: meanCI(samples[command.key]),
      cpuMs: summarize(cpu[command.key]),
    };
  }
  out.serveEverything = { ms: summarize(served), msCI: meanCI(served) };
  const medians = Object.entries(out).map(([key, r]) => `${key} ${Math.round(r.ms.median)} ms`);
  log(`startup (${runs} runs each): ${medians.join(", ")}`);
  return out;
}
