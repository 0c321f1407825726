import { isRecord, type LintRule, problem, targetOf } from "../rule.js";

/** server/tools §Tool Names (2025-11-25, 2026-07-28). */
const ALLOWED = /^[A-Za-z0-9_.-]{1,128}$/;

export const toolName: LintRule = {
  id: "tool-name",
  severity: "error",
  summary: "A tool's name is 1–128 characters of A–Z a–z 0–9 _ - . (server/tools §Tool Names).",
  fix: "Rename the tool with letters, digits, _ - and . only: hosts hand tool names to model APIs that refuse any other character.",
  check: ({ tools = [] }) =>
    tools.flatMap((tool, index) => {
      // An entry that is not an object is tool-shape's to report.
      if (!isRecord(tool)) return [];
      const name = tool.name;
      const target = targetOf("tool", name, index);
      if (typeof name !== "string") return [problem(toolName, target, "The tool has no name (a string is required)")];
      if (ALLOWED.test(name)) return [];
      const why =
        name.length === 0
          ? "it is empty"
          : name.length > 128
            ? `it is ${name.length} characters long (at most 128)`
            : `${[...new Set(name.replace(/[A-Za-z0-9_.-]/g, ""))].map((c) => JSON.stringify(c)).join(", ")} not allowed`;
      return [problem(toolName, target, `The tool name ${JSON.stringify(name)} breaks the spec's tool names: ${why}`)];
    }),
};

/** Names that occur more than once in a list, with how often. */
export function repeated(items: unknown[], key: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) {
    const value = isRecord(item) ? item[key] : undefined;
    if (typeof value === "string") counts.set(value, (counts.get(value) ?? 0) + 1);
  }
  return new Map([...counts].filter(([, count]) => count > 1));
}

export const duplicateTool: LintRule = {
  id: "duplicate-tool",
  severity: "error",
  summary: "No two tools share a name (server/tools §Tool Names: a name identifies one tool).",
  fix: "Give each tool its own name: a client calls a tool by name, so it can reach only one of them.",
  check: ({ tools = [] }) =>
    [...repeated(tools, "name")].map(([name, count]) =>
      problem(duplicateTool, `tool:${name}`, `${count} tools are named ${JSON.stringify(name)}`),
    ),
};
