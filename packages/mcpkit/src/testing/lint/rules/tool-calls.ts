import { ajvCheck } from "../../../schema/ajv.js";
import { isRecord, type LintProblem, type LintRule, problem } from "../rule.js";
import { declaredDialect } from "../schema-validity.js";

export const toolCall: LintRule = {
  id: "tool-call",
  severity: "error",
  summary: "A tool call lint was asked to make (--call) answers a CallToolResult, with a content list.",
  fix: "Check the arguments given with --call; a tool reports its own failures as a result with isError: true and content saying why.",
  check: ({ calls }) =>
    calls.flatMap((call) => {
      const target = `tool:${call.name}`;
      if (call.error !== undefined) return [problem(toolCall, target, `The call failed: ${call.error}`)];
      if (!isRecord(call.result) || !Array.isArray(call.result.content))
        return [problem(toolCall, target, "The result has no content list (server/tools §Tool Result)")];
      return [];
    }),
};

export const structuredContent: LintRule = {
  id: "structured-content",
  severity: "error",
  summary:
    "A tool with an outputSchema answers a call (that is not an error) with structuredContent that matches it (server/tools §Output Schema).",
  fix: "Return structuredContent that matches the outputSchema (or correct the schema): clients that validate it refuse the result.",
  check: async ({ calls, tools = [] }) => {
    const problems: LintProblem[] = [];
    for (const call of calls) {
      if (!isRecord(call.result) || call.result.isError === true) continue;
      const tool = tools.find((t) => isRecord(t) && t.name === call.name);
      const schema = isRecord(tool) ? tool.outputSchema : undefined;
      if (!isRecord(schema)) continue;
      const target = `tool:${call.name}`;
      const structured = call.result.structuredContent;
      if (structured === undefined) {
        problems.push(
          problem(
            structuredContent,
            target,
            "The tool declares an outputSchema, but its result has no structuredContent",
          ),
        );
        continue;
      }
      const dialect = declaredDialect(schema);
      if (dialect === undefined) continue;
      let check: Awaited<ReturnType<typeof ajvCheck>>;
      try {
        check = await ajvCheck(schema, dialect);
      } catch {
        continue; // an invalid outputSchema is tool-output-schema's to report
      }
      const mismatch = check(structured);
      if (mismatch !== undefined)
        problems.push(
          problem(structuredContent, target, `The structuredContent does not match the outputSchema: ${mismatch}`),
        );
    }
    return problems;
  },
};
