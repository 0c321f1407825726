import type { TestResult } from "./run-test.js";
import type { TestReport } from "./run-tests.js";

export type ReporterName = "text" | "junit" | "json";
export const REPORTERS: readonly ReporterName[] = ["text", "junit", "json"];

/** The last line of every text report: `N passed, N failed`. */
export const summaryLine = (report: Pick<TestReport, "passed" | "failed">) =>
  `${report.passed} passed, ${report.failed} failed`;

/** One test as the text reporter prints it as it goes: ✓ or ✗, its name, its time, why it failed. */
export function textLine(result: TestResult): string {
  const mark = result.ok ? "✓" : "✗";
  const lines = [`  ${mark} ${result.name} (${Math.round(result.ms)} ms)`];
  for (const failure of result.failures) lines.push(...failure.split("\n").map((line) => `      ${line}`));
  return `${lines.join("\n")}\n`;
}

/** The whole report as text: each file, its tests, and the summary line last. */
export function textReport(report: TestReport): string {
  const parts = report.files.map((file) => `${file.file}\n${file.tests.map(textLine).join("")}`);
  return `${parts.join("")}${summaryLine(report)}\n`;
}

/** The report as JSON: `{ files: [{ file, tests: [{ name, ok, ms, failures }] }], passed, failed }`. */
export function jsonReport(report: TestReport): string {
  const files = report.files.map((file) => ({
    file: file.file,
    tests: file.tests.map((t) => ({ name: t.name, ok: t.ok, ms: Math.round(t.ms), failures: t.failures })),
  }));
  return `${JSON.stringify({ files, passed: report.passed, failed: report.failed }, null, 2)}\n`;
}

const xml = (text: string) =>
  text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, "\uFFFD")
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;");

/** The report as JUnit XML, which CI systems show: a testsuite per file, a failure element per failed test. */
export function junitReport(report: TestReport): string {
  const seconds = (ms: number) => (ms / 1000).toFixed(3);
  const suites = report.files.map((file) => {
    const failed = file.tests.filter((t) => !t.ok).length;
    const time = file.tests.reduce((sum, t) => sum + t.ms, 0);
    const cases = file.tests.map((t) => {
      const open = `    <testcase classname="${xml(file.file)}" name="${xml(t.name)}" time="${seconds(t.ms)}"`;
      if (t.ok) return `${open}/>`;
      const message = t.failures[0]?.split("\n")[0] ?? "failed";
      return `${open}>\n      <failure message="${xml(message)}">${xml(t.failures.join("\n"))}</failure>\n    </testcase>`;
    });
    return [
      `  <testsuite name="${xml(file.file)}" tests="${file.tests.length}" failures="${failed}" errors="0" time="${seconds(time)}">`,
      ...cases,
      "  </testsuite>",
    ].join("\n");
  });
  const total = report.passed + report.failed;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="mcpkit test" tests="${total}" failures="${report.failed}" errors="0">`,
    ...suites,
    "</testsuites>",
    "",
  ].join("\n");
}

export function formatReport(report: TestReport, reporter: ReporterName): string {
  return reporter === "junit" ? junitReport(report) : reporter === "json" ? jsonReport(report) : textReport(report);
}
