import type { Diagnosis, DoctorCheck } from "../../contract/events.js";

/** A step's mark, as `mcpkit doctor` prints it: passed, seen, failed (an error), or a caveat (a warning). */
function mark(check: DoctorCheck): { symbol: string; label: string; tone: string } {
  if (check.ok)
    return check.severity === "info"
      ? { symbol: "·", label: "seen", tone: "info" }
      : { symbol: "✓", label: "passed", tone: "good" };
  return check.severity === "error"
    ? { symbol: "✗", label: "failed", tone: "bad" }
    : { symbol: "!", label: "warning", tone: "warn" };
}

/** The last line: whether a client can use the server, as `mcpkit doctor` says it. */
function verdict(d: Diagnosis): string {
  if (d.running) return "The doctor is reaching the server step by step…";
  if (d.error) return d.error;
  const failed = (severity: string) => d.checks.filter((c) => !c.ok && c.severity === severity).length;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  if (!d.ok) return `${plural(failed("error"), "error")}: a client cannot use this server as it is.`;
  const warnings = failed("warning");
  return warnings
    ? `The server works, with ${plural(warnings, "warning")}: the failure may have passed (try again).`
    : "The doctor found no problem: the failure may have passed (try again).";
}

/**
 * What the doctor found where the connection failed (the same checks as `mcpkit doctor`),
 * each step as it is decided: the mark, the check, what it found, and for a failure the fix.
 */
export function DiagnosisSteps({ diagnosis }: { diagnosis: Diagnosis }) {
  return (
    <div class="diagnosis" data-testid="diagnosis" aria-busy={diagnosis.running}>
      <div class="hint">What the doctor found (mcpkit doctor):</div>
      <ol class="diagnosis-steps">
        {diagnosis.checks.map((check, i) => {
          const { symbol, label, tone } = mark(check);
          const [first, ...rest] = check.message.split("\n");
          return (
            <li key={`${i}-${check.id}`} class={`step ${tone}`} data-check={check.id} data-ok={String(check.ok)}>
              <span class="mark" role="img" aria-label={label}>
                {symbol}
              </span>
              <span class="mono check-id">{check.id}</span>
              <span class="check-message">
                {first}
                {rest.length > 0 && <pre class="mono check-detail">{rest.join("\n")}</pre>}
                {!check.ok && check.fix && (
                  <span class="check-fix">
                    <strong>Fix:</strong> {check.fix}
                  </span>
                )}
              </span>
            </li>
          );
        })}
      </ol>
      <div class={`diagnosis-verdict ${diagnosis.running ? "hint" : ""}`} data-testid="diagnosis-verdict">
        {verdict(diagnosis)}
      </div>
    </div>
  );
}
