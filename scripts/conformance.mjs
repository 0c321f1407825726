// Runs the official MCP conformance suite (pinned in package.json) against mcpkit: the
// server scenarios against `mcpkit serve everything --port`, the client scenarios against
// examples/conformance-client.mjs. Its CLI needs Node >= 22: it runs on a Node 24 installed on
// demand (node-runtime.mjs); our own code runs on the Node that runs this script.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer as createNetServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { devSignIn } from "./dev-sign-in.mjs";
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

async function startServer(extra = []) {
  const child = spawn(
    process.execPath,
    [join(root, "packages/cli/bin/mcpkit.js"), "serve", "everything", "--port", "0", ...extra],
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

/** The authorization server scenarios (the suite's `authorization` command); all of them are run and counted. */
export const AUTHORIZATION_SCENARIOS = ["authorization-server-metadata-endpoint", "authorization-code-grant"];

/** A port free now on 127.0.0.1, for the suite's callback listener (it takes a port number, not 0). */
function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createNetServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/**
 * The authorization server scenarios against `mcpkit serve everything --authorization-server
 * dev`: a client is registered (RFC 7591) for the suite's loopback callback, and when the
 * suite prints the authorization URL for a person to open, dev-sign-in.mjs plays that person
 * (the development sign-in, consent allowed). One result per scenario.
 */
export async function runAuthorizationConformance() {
  const node24 = nodeRuntime(24);
  const out = mkdtempSync(join(tmpdir(), "mcpkit-conformance-authorization-"));
  const server = await startServer(["--authorization-server", "dev"]);
  try {
    const issuer = new URL(server.url).origin;
    const port = await freePort();
    const callback = `http://127.0.0.1:${port}/callback`;
    const registration = await fetch(`${issuer}/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        client_name: "conformance",
        redirect_uris: [callback],
        token_endpoint_auth_method: "none",
      }),
    });
    if (registration.status !== 201) throw new Error(`registration failed: HTTP ${registration.status}`);
    const { client_id } = await registration.json();
    const args = ["authorization", "--url", issuer, "--client-id", client_id, "--resource", server.url];
    const child = spawn(node24, [cli, ...args, "--port", String(port), "-o", out], {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    let signIn;
    const watch = (d) => {
      output += d;
      const url = new RegExp(`^(${issuer}/authorize\\?\\S+)$`, "m").exec(output)?.[1];
      if (url && !signIn) signIn = devSignIn(url, callback).catch((error) => error);
    };
    child.stdout.on("data", watch);
    child.stderr.on("data", watch);
    const timer = setTimeout(() => child.kill("SIGTERM"), 120_000);
    await new Promise((resolve) => child.on("close", resolve));
    clearTimeout(timer);
    const failedSignIn = await signIn;
    const seen = verdicts(out, "authorization-server-", true);
    if (failedSignIn instanceof Error) {
      const grant = seen.get("authorization-code-grant") ?? [];
      seen.set("authorization-code-grant", [...grant, `the sign-in failed: ${failedSignIn.message}`]);
    }
    return scoredResults("authorization", AUTHORIZATION_SCENARIOS, seen);
  } finally {
    server.stop();
    rmSync(out, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (process.argv[2] === "authorization") {
    for (const r of await runAuthorizationConformance())
      console.log(`${r.ok ? "ok  " : "FAIL"} ${r.side} ${r.scenario}${r.ok ? "" : `  ${r.failures.join("; ")}`}`);
    process.exit(0);
  }
  const revision = process.argv[2] ?? "2025-11-25";
  const results = await runConformance(revision);
  for (const r of results) {
    const mark = r.ok ? "ok  " : "FAIL";
    console.log(`${mark} ${r.side} ${r.scenario}${r.ok ? "" : `  ${r.failures.join("; ")}`}`);
  }
}
