// Runs the official MCP conformance suite (pinned in package.json) against mcpkit: the
// server scenarios against `mcpkit serve everything --port`, the client scenarios against
// examples/conformance-client.mjs. Its CLI needs Node >= 22: it runs on a Node 24 installed on
// demand (node-runtime.mjs); our own code runs on the Node that runs this script.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { nodeRuntime } from "./node-runtime.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const cli = join(root, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js");

function run(command, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: ["ignore", "pipe", "pipe"], ...options });
    let output = "";
    child.stdout.on("data", (d) => {
      output += d;
    });
    child.stderr.on("data", (d) => {
      output += d;
    });
    child.on("close", (code) => resolve({ code, output }));
  });
}

/** The scenarios a revision scores (the part of `list --requirements` above "Run and reported"). */
async function scoredScenarios(node24, revision) {
  const { output } = await run(node24, [cli, "list", "--requirements", revision]);
  const scored = { server: [], client: [] };
  let side;
  for (const line of output.split("Run and reported")[0].split("\n")) {
    if (line.startsWith("Server scenarios")) side = "server";
    else if (line.startsWith("Client scenarios")) side = "client";
    const m = /^\s+- (\S+)/.exec(line);
    if (m && side) scored[side].push(m[1]);
  }
  return scored;
}

/**
 * Extension scenarios (`--suite all`, outside every revision's requirements) that npm test
 * counts like the scored ones. Run once, with the latest revision, one `--scenario` each.
 */
export const EXTENSION_SCENARIOS = {
  server: [
    "sep-2640-skills-enumeration",
    "sep-2640-skills-manifest",
    "sep-2640-skills-directory",
    // The Tasks extension (SEP-2663). tasks-status-notifications is left out: the pinned
    // suite skips every check of it (its harness is pending a rewrite), so it tests nothing.
    "tasks-lifecycle",
    "tasks-capability-negotiation",
    "tasks-wire-fields",
    "tasks-request-state-removal",
    "tasks-mrtr-input",
    "tasks-request-headers",
    "tasks-dispatch-and-envelope",
    "tasks-required-task-error",
    "tasks-mrtr-composition",
  ],
  client: [
    "sep-2640-client-no-prefetch",
    "sep-2640-client-verify-digest",
    "sep-2640-client-verify-size",
    "sep-2640-client-verify-frontmatter",
    "auth/dpop",
    "auth/dpop-nonce",
    "auth/wif-jwt-bearer",
  ],
};
const EXTENSION_REVISION = "2026-07-28";

/**
 * Reads every scenario's checks.json under `dir`: scenario name → failing checks. With
 * `requireSuccess`, a scenario whose checks were all skipped failed: it tested nothing.
 */
function verdicts(dir, prefix, requireSuccess = false, into = new Map(), nested = "") {
  if (!existsSync(dir)) return into;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const file = join(dir, entry.name, "checks.json");
    if (!existsSync(file)) {
      // Scenario names with a slash (auth/…) are saved one folder down.
      verdicts(join(dir, entry.name), "", requireSuccess, into, `${nested}${entry.name}/`);
      continue;
    }
    // Folder names are `<prefix><scenario>-<timestamp>`.
    const name = nested + entry.name.slice(prefix.length).replace(/-\d{4}-\d{2}-\d{2}T.*$/, "");
    const checks = JSON.parse(readFileSync(file, "utf8"));
    const failing = checks.filter((c) => c.status === "FAILURE").map((c) => `${c.id}: ${c.errorMessage ?? ""}`);
    if (requireSuccess && !checks.some((c) => c.status === "SUCCESS")) failing.push("no check succeeded (all skipped)");
    into.set(name, [...(into.get(name) ?? []), ...failing]);
  }
  return into;
}

async function startServer() {
  const child = spawn(
    process.execPath,
    [join(root, "packages/cli/bin/mcpkit.js"), "serve", "everything", "--port", "0"],
    {
      cwd: root,
      stdio: ["ignore", "ignore", "pipe"],
    },
  );
  const url = await new Promise((resolve, reject) => {
    let text = "";
    const timer = setTimeout(() => reject(new Error(`server did not start: ${text}`)), 15_000);
    child.stderr.on("data", (d) => {
      text += d;
      const m = /serving MCP on (http:\/\/\S+\/mcp)/.exec(text);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.on("exit", (code) => reject(new Error(`server exited with ${code}: ${text}`)));
  });
  return { url, stop: () => child.kill("SIGTERM") };
}

/** One result per scored scenario; a scenario that left no checks failed. */
function scoredResults(side, scenarios, seen) {
  return scenarios.map((scenario) => {
    const failures = seen.get(scenario);
    return { side, scenario, ok: failures !== undefined && failures.length === 0, failures: failures ?? ["no result"] };
  });
}

/**
 * Runs the scored server and client scenarios of `revision`. Returns one result per scored
 * scenario: { side, scenario, ok, failures }.
 */
export async function runConformance(revision) {
  const node24 = nodeRuntime(24);
  const scored = await scoredScenarios(node24, revision);
  const out = mkdtempSync(join(tmpdir(), "mcpkit-conformance-"));
  const results = [];
  const server = await startServer();
  try {
    const serverDir = join(out, "server");
    await run(node24, [
      cli,
      "server",
      "--url",
      server.url,
      "--requirements",
      revision,
      "-o",
      serverDir,
      "--timeout",
      "60000",
    ]);
    results.push(...scoredResults("server", scored.server, verdicts(serverDir, "server-")));
    if (revision === EXTENSION_REVISION) {
      const extensionDir = join(out, "server-extensions");
      for (const scenario of EXTENSION_SCENARIOS.server) {
        await run(node24, [cli, "server", "--url", server.url, "--scenario", scenario, "-o", extensionDir]);
      }
      results.push(...scoredResults("server", EXTENSION_SCENARIOS.server, verdicts(extensionDir, "server-", true)));
    }
  } finally {
    server.stop();
  }
  const clientDir = join(out, "client");
  const command = `${process.execPath} ${join(root, "examples", "conformance-client.mjs")}`;
  await run(node24, [
    cli,
    "client",
    "--command",
    command,
    "--requirements",
    revision,
    "-o",
    clientDir,
    "--timeout",
    "120000",
  ]);
  results.push(...scoredResults("client", scored.client, verdicts(clientDir, "")));
  if (revision === EXTENSION_REVISION) {
    const extensionDir = join(out, "client-extensions");
    const queue = [...EXTENSION_SCENARIOS.client];
    const worker = async () => {
      for (let scenario = queue.shift(); scenario; scenario = queue.shift()) {
        const args = [
          "client",
          "--command",
          command,
          "--scenario",
          scenario,
          "-o",
          extensionDir,
          "--timeout",
          "120000",
        ];
        await run(node24, [cli, ...args]);
      }
    };
    await Promise.all([worker(), worker()]);
    results.push(...scoredResults("client", EXTENSION_SCENARIOS.client, verdicts(extensionDir, "", true)));
  }
  rmSync(out, { recursive: true, force: true });
  return results;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const revision = process.argv[2] ?? "2025-11-25";
  const results = await runConformance(revision);
  for (const r of results) {
    const mark = r.ok ? "ok  " : "FAIL";
    console.log(`${mark} ${r.side} ${r.scenario}${r.ok ? "" : `  ${r.failures.join("; ")}`}`);
  }
}
