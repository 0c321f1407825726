import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

// A server with fifty zod tools (fifty-tools.ts) must type-check without TS2589 and within
// a budget of type instantiations: a deterministic measure of what a change to the
// registration types costs every user (measured 2026-11-24: ~58 000 instantiations,
// ~0.5 s of check time). Time is printed, not asserted: it depends on the machine's load.

const ROOT = fileURLToPath(new URL("../../../../", import.meta.url));
const TSC = `${ROOT}node_modules/typescript/bin/tsc`;
const CONFIG = fileURLToPath(new URL("tsconfig.budget.json", import.meta.url));
const MAX_INSTANTIATIONS = 150_000;

it("type-checks a fifty-tool server without TS2589, within its instantiation budget", async () => {
  const output = await new Promise<string>((resolve) => {
    execFile(process.execPath, [TSC, "-p", CONFIG, "--extendedDiagnostics"], { cwd: ROOT }, (_error, stdout, stderr) =>
      resolve(`${stdout}${stderr}`),
    );
  });
  expect(output).not.toMatch(/error TS/);
  const instantiations = Number(/Instantiations:\s+(\d+)/.exec(output)?.[1]);
  const checkTime = /Check time:\s+([\d.]+s)/.exec(output)?.[1];
  process.stdout.write(`fifty tools: ${instantiations} instantiations, check time ${checkTime}\n`);
  expect(instantiations).toBeGreaterThan(0);
  expect(instantiations).toBeLessThan(MAX_INSTANTIATIONS);
}, 60_000);
