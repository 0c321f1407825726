/**
 * A doctor check is data beside the function that decides it: its id, its severity, what
 * it looks at and the usual fix live in one object, so docs/doctor.md, `--json` and the
 * inspector all read them from one place.
 */

export type Severity = "error" | "warning" | "info";

/** What a check is: `DOCTOR_CHECKS` lists them all. */
export interface CheckInfo {
  /** Stable id, as `--json` and docs/doctor.md name it. */
  readonly id: string;
  /** "error": a client cannot use the server; "warning": it can, with a caveat; "info": what was seen. */
  readonly severity: Severity;
  /** What the check looks at, in one sentence. */
  readonly summary: string;
  /** The usual fix when it fails (a result may name a more precise one). */
  readonly fix: string;
}

/** One check as decided for one server: `ok` false is a failure of its severity. */
export interface CheckResult {
  id: string;
  ok: boolean;
  severity: Severity;
  message: string;
  /** How to fix it: set when it failed. */
  fix?: string;
}

export const passed = (check: CheckInfo, message: string): CheckResult => ({
  id: check.id,
  ok: true,
  severity: check.severity,
  message,
});

export const failed = (check: CheckInfo, message: string, fix: string = check.fix): CheckResult => ({
  id: check.id,
  ok: false,
  severity: check.severity,
  message,
  fix,
});

/** The checks of one diagnosis, in the order they were decided; each reported as it comes. */
export class Checks {
  readonly list: CheckResult[] = [];
  constructor(private readonly onCheck?: (check: CheckResult) => void) {}

  add(result: CheckResult): CheckResult {
    this.list.push(result);
    this.onCheck?.(result);
    return result;
  }

  /** Whether no check of severity error failed. */
  get ok(): boolean {
    return this.list.every((check) => check.ok || check.severity !== "error");
  }
}
