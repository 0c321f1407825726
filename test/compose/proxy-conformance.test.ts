/**
 * The official conformance suite's server scenarios, run against `mcpkit serve proxy`
 * fronting `mcpkit serve everything` on stdio: a few that cross the proxy in every way it
 * forwards (a request the upstream server makes of its client, progress, logs, resource
 * updates, multi round-trip requests, per-request capabilities), for both revisions.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nodeRuntime } from "../../scripts/node-runtime.mjs";
import { closeServed, type Served, serveHttp } from "../serve/helpers.js";
import { MCPKIT_BIN, REPO_ROOT, SERVER_NODE } from "../workspace/helpers.js";

const CONFORMANCE = join(REPO_ROOT, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js");

const SCENARIOS: Record<string, string[]> = {
  "2025-11-25": [
    "tools-call-elicitation",
    "tools-call-with-progress",
    "tools-call-with-logging",
    "resources-subscribe",
  ],
  "2026-07-28": [
    "input-required-result-multi-round",
    "input-required-result-capability-check",
    "input-required-result-basic-sampling",
    "caching",
  ],
};

let node24 = "";
let served: Served;
const out = mkdtempSync(join(tmpdir(), "mcpkit-proxy-conformance-"));

beforeAll(async () => {
  node24 = nodeRuntime(24);
  served = await serveHttp("proxy", ["--", SERVER_NODE, MCPKIT_BIN, "serve", "everything"]);
}, 120_000);

afterAll(async () => {
  await closeServed();
  rmSync(out, { recursive: true, force: true });
});

/** Runs one scenario; resolves with its checks (id, status, errorMessage). */
function runScenario(scenario: string, revision: string): Promise<{ id: string; status: string }[]> {
  const dir = join(out, revision, scenario);
  return new Promise((resolve, reject) => {
    const args = [CONFORMANCE, "server", "--url", served.url.href, "--scenario", scenario];
    const child = spawn(node24, [...args, "--spec-version", revision, "-o", dir], { stdio: "ignore" });
    child.once("error", reject);
    child.once("close", () => {
      const folder = existsSync(dir) ? readdirSync(dir).find((f) => f.startsWith(`server-${scenario}-`)) : undefined;
      if (!folder) return reject(new Error(`${scenario} left no results`));
      resolve(JSON.parse(readFileSync(join(dir, folder, "checks.json"), "utf8")));
    });
  });
}

for (const [revision, scenarios] of Object.entries(SCENARIOS)) {
  describe(`conformance through the proxy, ${revision}`, () => {
    for (const scenario of scenarios) {
      it(scenario, async () => {
        const checks = await runScenario(scenario, revision);
        expect(checks.filter((c) => c.status === "FAILURE")).toEqual([]);
        expect(checks.some((c) => c.status === "SUCCESS")).toBe(true);
      }, 120_000);
    }
  });
}
