import { isRecord, type LintRule, problem, targetOf } from "../rule.js";

/**
 * server/tools §ToolAnnotations: destructiveHint and idempotentHint are "meaningful only when
 * readOnlyHint == false". A tool that says it is read-only and also that it destroys, or
 * that calling it twice does more than once, says two things a client cannot both believe.
 */
export const toolAnnotations: LintRule = {
  id: "tool-annotations",
  severity: "warning",
  summary:
    "A tool's annotations do not contradict each other (readOnlyHint with destructiveHint, or with idempotentHint: false).",
  fix: "Decide whether the tool changes anything: a read-only tool leaves destructiveHint and idempotentHint out.",
  check: ({ tools = [] }) =>
    tools.flatMap((tool, index) => {
      if (!isRecord(tool) || !isRecord(tool.annotations) || tool.annotations.readOnlyHint !== true) return [];
      const { destructiveHint, idempotentHint } = tool.annotations;
      const clashes = [
        ...(destructiveHint === true ? ["destructiveHint: true (a read-only tool destroys nothing)"] : []),
        ...(idempotentHint === false ? ["idempotentHint: false (a read-only tool has no effect to repeat)"] : []),
      ];
      return clashes.length > 0
        ? [
            problem(
              toolAnnotations,
              targetOf("tool", tool.name, index),
              `readOnlyHint: true contradicts ${clashes.join(" and ")}`,
            ),
          ]
        : [];
    }),
};
