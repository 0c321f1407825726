import type { Diagnosis } from "./contract/events.js";
import type { Target } from "./target.js";

/** The doctor's limit per step: its own default (10 s), or the inspector's request timeout when shorter. */
export function doctorTimeout(timeoutMs: number): number {
  const DEFAULT_STEP_MS = 10_000;
  return timeoutMs > 0 ? Math.min(timeoutMs, DEFAULT_STEP_MS) : DEFAULT_STEP_MS;
}

/**
 * The doctor (../doctor/), run by the inspector where a connection failed: one diagnosis
 * at a time (a stdio server is started again for it, so two must not race), each step
 * told as it is decided. A diagnosis the connection has moved on from (a reconnection)
 * is dropped, its steps unsaid. The doctor's modules load on the first diagnosis.
 */
export class Doctor {
  /** The last diagnosis, or the one under way. */
  diagnosis: Diagnosis | undefined;
  private generation = 0;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly changed: () => void) {}

  /** Forgets the diagnosis (the connection starts anew); one under way goes unsaid. */
  clear(): void {
    this.generation++;
    this.diagnosis = undefined;
  }

  /** Diagnoses `target`; resolves with the diagnosis, or undefined when a newer one (or clear) replaced it. */
  run(target: Target, timeoutMs: number): Promise<Diagnosis | undefined> {
    const generation = ++this.generation;
    const mine = () => generation === this.generation;
    const say = (diagnosis: Diagnosis) => {
      if (!mine()) return;
      this.diagnosis = diagnosis;
      this.changed();
    };
    this.diagnosis = { running: true, checks: [] };
    this.changed();
    const run = this.queue.then(async (): Promise<Diagnosis | undefined> => {
      if (!mine()) return undefined;
      const checks: Diagnosis["checks"] = [];
      try {
        const { diagnose } = await import("../doctor/index.js");
        const report = await diagnose(target, {
          timeoutMs,
          onCheck: (check) => {
            checks.push(check);
            say({ running: true, checks: [...checks] });
          },
        });
        const done: Diagnosis = { running: false, ok: report.ok, checks: report.checks };
        say(done);
        return mine() ? done : undefined;
      } catch (error) {
        const failed: Diagnosis = {
          running: false,
          checks: [...checks],
          error: `The doctor could not finish: ${error instanceof Error ? error.message : String(error)}`,
        };
        say(failed);
        return mine() ? failed : undefined;
      }
    });
    this.queue = run;
    return run;
  }
}
