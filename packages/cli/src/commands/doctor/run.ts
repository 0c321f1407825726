import { durationMs } from "@mcpkit/servers/options";
import { type CheckResult, DEFAULT_STEP_TIMEOUT_MS, describeTarget, diagnose } from "../../doctor/index.js";
import { type ServerTargetOptions, serverTarget } from "../server-target.js";
import { colorsFor } from "../terminal-colors.js";
import { formatCheck, formatVerdict } from "./format.js";

export interface DoctorCommandOptions extends ServerTargetOptions {
  json?: boolean;
  timeout?: string;
}

/**
 * `mcpkit doctor`: the checks on stdout as they are decided (or one JSON report with
 * --json). Returns the exit code: 1 exactly when a check of severity error failed.
 */
export async function runDoctor(
  words: string[],
  argv: readonly string[],
  options: DoctorCommandOptions,
): Promise<number> {
  const target = await serverTarget(words, argv, options, "doctor");
  const timeoutMs =
    options.timeout === undefined ? DEFAULT_STEP_TIMEOUT_MS : durationMs(options.timeout, "--timeout", { min: 0 });
  const c = colorsFor(process.stdout);
  const print = (text: string) => void process.stdout.write(`${text}\n`);
  if (!options.json) print(c.bold(`mcpkit doctor: ${describeTarget(target)}`));
  const report = await diagnose(target, {
    timeoutMs,
    ...(!options.json && { onCheck: (check: CheckResult) => print(formatCheck(check, c)) }),
  });
  if (options.json) print(JSON.stringify(report, null, 2));
  else print(formatVerdict(report, c));
  return report.ok ? 0 : 1;
}
