import type { LintProblem } from "mcpkit/testing";
import { printable } from "../../doctor/index.js";
import type { Colors } from "../terminal-colors.js";

/** One problem as a person reads it: a mark, the target, the rule, the message, the fix. */
export function formatProblem(problem: LintProblem, c: Colors): string {
  const mark = problem.severity === "error" ? c.red("✗ error  ") : c.yellow("! warning");
  const lines = [`  ${mark} ${c.bold(printable(problem.target))} ${c.dim(`[${problem.rule}]`)}`];
  for (const line of printable(problem.message).split("\n")) lines.push(`      ${line}`);
  if (problem.fix) lines.push(`      ${c.bold("fix:")} ${problem.fix}`);
  return lines.join("\n");
}

export function formatSummary(problems: LintProblem[], c: Colors): string {
  const errors = problems.filter((p) => p.severity === "error").length;
  const warnings = problems.length - errors;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  if (problems.length === 0) return c.green("No problem found.");
  const text = `${plural(errors, "error")}, ${plural(warnings, "warning")}.`;
  return errors > 0 ? c.red(text) : c.yellow(text);
}
