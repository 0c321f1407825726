import { type CheckResult, Checks } from "./check.js";
import { diagnoseHttp } from "./http/diagnose-http.js";
import { diagnoseStdio } from "./stdio/diagnose-stdio.js";
import type { DoctorTarget } from "./target.js";

/** Each step's limit unless told otherwise: 10 s. */
export const DEFAULT_STEP_TIMEOUT_MS = 10_000;

export interface DoctorOptions {
  /** Each step's limit, ms: starting and the first answer, each list, each metadata document (default 10 s; 0: none). */
  timeoutMs?: number;
  /** Called with each check as it is decided, in order: to show the steps as they come. */
  onCheck?: (check: CheckResult) => void;
}

/** What `mcpkit doctor --json` prints: `ok` is false exactly when a check of severity error failed. */
export interface DoctorReport {
  ok: boolean;
  checks: CheckResult[];
}

/**
 * Reaches a server step by step, as a client would, and says what each step found: for a
 * failed one, the cause in plain words and the fix. Never throws for what the server does;
 * never starts a sign-in; never writes to the terminal (the caller shows the checks).
 */
export async function diagnose(target: DoctorTarget, options: DoctorOptions = {}): Promise<DoctorReport> {
  const checks = new Checks(options.onCheck);
  const timeoutMs = options.timeoutMs ?? DEFAULT_STEP_TIMEOUT_MS;
  if (target.kind === "stdio") await diagnoseStdio(target, timeoutMs, checks);
  else await diagnoseHttp(target, timeoutMs, checks);
  return { ok: checks.ok, checks: checks.list };
}
