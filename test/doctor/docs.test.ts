import { readFileSync } from "node:fs";
import { LINT_RULES } from "mcpkit/testing";
import { describe, expect, it } from "vitest";
import { connectionRule } from "../../packages/cli/src/commands/lint/connection-rule.js";
import { DOCTOR_CHECKS } from "../../packages/cli/src/doctor/index.js";

// docs/doctor.md describes every check and rule under a heading that gives its id and its
// severity, as the code defines them: one source for the page, --json and the inspector.

const page = readFileSync(new URL("../../docs/doctor.md", import.meta.url), "utf8");
const headings = page.split("\n").filter((line) => line.startsWith("#### "));
/** The ids a heading names, with the severity it gives them: "#### `a`, `b` (error)". */
const documented = new Map(
  headings.flatMap((line) => {
    const severity = /\((error|warning|info)\)$/.exec(line)?.[1];
    return [...line.matchAll(/`([a-z-]+)`/g)].map((m) => [m[1] as string, severity] as const);
  }),
);

describe("docs/doctor.md", () => {
  it.each(DOCTOR_CHECKS.map((c) => [c.id, c.severity]))(
    "describes the doctor's check %s, of severity %s",
    (id, severity) => {
      expect(documented.get(id)).toBe(severity);
    },
  );

  it.each([...LINT_RULES, connectionRule].map((r) => [r.id, r.severity]))(
    "describes the lint rule %s, of severity %s",
    (id, severity) => {
      expect(documented.get(id)).toBe(severity);
    },
  );

  it("describes no check or rule that does not exist, and each with an example", () => {
    const ids = new Set([...DOCTOR_CHECKS, ...LINT_RULES, connectionRule].map((c) => c.id));
    expect([...documented.keys()].filter((id) => !ids.has(id))).toEqual([]);
    // Each heading is followed, before the next, by an example of what it reports.
    for (const section of page.split("\n#### ").slice(1)) expect(section.split("\n### ")[0]).toContain("```\n");
  });
});
