/**
 * The doctor: why a server does not work, step by step. `mcpkit doctor` prints what
 * `diagnose` finds; the inspector can show the same checks where a connection failed.
 */
import type { CheckInfo } from "./check.js";
import * as httpAuth from "./http/auth-checks.js";
import * as http from "./http/http-checks.js";
import * as session from "./session-checks.js";
import * as stdio from "./stdio/stdio-checks.js";

export type { CheckInfo, CheckResult, Severity } from "./check.js";
export { DEFAULT_STEP_TIMEOUT_MS, type DoctorOptions, type DoctorReport, diagnose } from "./diagnose.js";
export { printable } from "./printable.js";
export { type DoctorTarget, describeTarget } from "./target.js";

/** Every check the doctor makes, as data, in the order a diagnosis meets them (docs/doctor.md lists each). */
export const DOCTOR_CHECKS: readonly CheckInfo[] = [
  stdio.command,
  http.reachable,
  http.endpoint,
  http.legacySse,
  httpAuth.authChallenge,
  httpAuth.resourceMetadata,
  httpAuth.resourceMatch,
  httpAuth.serverMetadata,
  httpAuth.registration,
  httpAuth.pkce,
  httpAuth.authRequired,
  httpAuth.authToken,
  session.handshake,
  session.revision,
  session.legacyClients,
  session.toolsList,
  session.promptsList,
  session.resourcesList,
  session.templatesList,
  stdio.processAlive,
  stdio.stdoutClean,
  stdio.stderrSeen,
];
export { type Connected, connectTarget } from "./connect-target.js";
