import type { CheckResult, DoctorReport } from "../../doctor/index.js";
import type { Colors } from "../terminal-colors.js";

/** The id column's width: the longest check id, and a space. */
const ID_WIDTH = 24;

/** One check as a person reads it: a mark, the id, the message, and for a failure the fix. */
export function formatCheck(check: CheckResult, c: Colors): string {
  const mark = check.ok
    ? check.severity === "info"
      ? c.dim("·")
      : c.green("✓")
    : check.severity === "error"
      ? c.red("✗")
      : c.yellow("!");
  const indent = " ".repeat(4 + ID_WIDTH);
  const [first = "", ...rest] = check.message.split("\n");
  const lines = [`  ${mark} ${check.id.padEnd(ID_WIDTH)}${first}`, ...rest.map((line) => c.dim(`${indent}${line}`))];
  if (!check.ok && check.fix) lines.push(`${indent}${c.bold("fix:")} ${check.fix}`);
  return lines.join("\n");
}

/** The last line: whether a client can use the server, and how many failures of each kind. */
export function formatVerdict(report: DoctorReport, c: Colors): string {
  const count = (severity: string) => report.checks.filter((check) => !check.ok && check.severity === severity).length;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  const errors = count("error");
  const warnings = count("warning");
  if (!report.ok)
    return c.red(
      `${plural(errors, "error")}${warnings ? `, ${plural(warnings, "warning")}` : ""}: a client cannot use this server as it is.`,
    );
  return warnings
    ? c.yellow(`The server works, with ${plural(warnings, "warning")}.`)
    : c.green("The server works: no problem found.");
}
