import { isRecord, type LintProblem, type LintRule, type LintRuleInfo, problem, targetOf } from "../rule.js";
import { declaredDialect, schemaInvalidity } from "../schema-validity.js";

/** What is wrong with a tool's input or output schema, checked under its dialect. */
async function schemaProblems(
  rule: LintRuleInfo,
  field: "inputSchema" | "outputSchema",
  tools: unknown[],
  required: boolean,
): Promise<LintProblem[]> {
  const problems: LintProblem[] = [];
  for (const [index, tool] of tools.entries()) {
    if (!isRecord(tool)) continue;
    const target = targetOf("tool", tool.name, index);
    const schema = tool[field];
    if (schema === undefined) {
      if (required) problems.push(problem(rule, target, `The tool has no ${field} (it is required)`));
      continue;
    }
    if (!isRecord(schema)) {
      problems.push(problem(rule, target, `The ${field} is ${JSON.stringify(schema)}, not a JSON Schema object`));
      continue;
    }
    if (schema.type !== "object") {
      problems.push(
        problem(
          rule,
          target,
          `The ${field} describes ${schema.type === undefined ? "no type" : `type ${JSON.stringify(schema.type)}`}, not type "object"`,
          `Make the ${field} { "type": "object", "properties": { … } }: ${field === "inputSchema" ? "arguments are" : "structuredContent is"} always an object.`,
        ),
      );
    }
    const dialect = declaredDialect(schema);
    // An unknown dialect is the schema-dialect rule's to report: it cannot be checked here.
    if (dialect === undefined) continue;
    const invalid = await schemaInvalidity(schema, dialect);
    if (invalid !== undefined)
      problems.push(problem(rule, target, `The ${field} is not valid JSON Schema ${dialect}: ${invalid}`));
  }
  return problems;
}

export const toolInputSchema: LintRule = {
  id: "tool-input-schema",
  severity: "error",
  summary:
    "A tool's inputSchema is a valid JSON Schema of type object under its declared dialect ($schema; 2020-12 when absent), nested subschemas included.",
  fix: 'Correct the schema where the message points (a JSON Pointer into it); a tool without arguments takes { "type": "object", "additionalProperties": false }.',
  check: ({ tools = [] }) => schemaProblems(toolInputSchema, "inputSchema", tools, true),
};

export const toolOutputSchema: LintRule = {
  id: "tool-output-schema",
  severity: "error",
  summary: "A tool's outputSchema, when it has one, is a valid JSON Schema of type object under its declared dialect.",
  fix: "Correct the schema where the message points (a JSON Pointer into it), or leave outputSchema out.",
  check: ({ tools = [] }) => schemaProblems(toolOutputSchema, "outputSchema", tools, false),
};

/** The schemas each tool declares, with where they are. */
function* schemasOf(tools: unknown[]): Generator<[string, string, Record<string, unknown>]> {
  for (const [index, tool] of tools.entries()) {
    if (!isRecord(tool)) continue;
    const target = targetOf("tool", tool.name, index);
    for (const field of ["inputSchema", "outputSchema"] as const)
      if (isRecord(tool[field])) yield [target, field, tool[field] as Record<string, unknown>];
  }
}

export const schemaDialect: LintRule = {
  id: "schema-dialect",
  severity: "warning",
  summary:
    "A schema's $schema names a dialect clients support: 2020-12 (every client must), 2019-09 or draft-07 (basic §JSON Schema Usage).",
  fix: 'Drop $schema (2020-12 is the default) or set it to "https://json-schema.org/draft/2020-12/schema".',
  check: ({ tools = [] }) =>
    [...schemasOf(tools)].flatMap(([target, field, schema]) =>
      declaredDialect(schema) === undefined
        ? [
            problem(
              schemaDialect,
              target,
              `The ${field} declares $schema ${JSON.stringify(schema.$schema)}, a dialect clients need not support (so lint did not check it)`,
            ),
          ]
        : [],
    ),
};
