import { isRecord, type LintProblem, type LintRule, problem, targetOf } from "../rule.js";

/**
 * The fields a strict client checks the type of (one that validates results against the
 * spec's schema refuses the whole list when one entry is wrong): what each rule below
 * looks at beside the fields other rules own (names, schemas, URIs).
 */
type FieldCheck = [field: string, ok: (value: unknown) => boolean, expected: string];

const string = (value: unknown) => typeof value === "string";
const boolean = (value: unknown) => typeof value === "boolean";
const icons = (value: unknown) => Array.isArray(value) && value.every((icon) => isRecord(icon) && string(icon.src));

const COMMON: FieldCheck[] = [
  ["title", string, "a string"],
  ["description", string, "a string"],
  ["icons", icons, "a list of icons, each with a src"],
  ["_meta", isRecord, "an object"],
];

/** Where a value's field has the wrong type: one message per field. */
function wrongFields(item: Record<string, unknown>, checks: FieldCheck[], prefix = ""): string[] {
  return checks.flatMap(([field, ok, expected]) =>
    item[field] !== undefined && !ok(item[field])
      ? [`${prefix}${field} is ${JSON.stringify(item[field])}, not ${expected}`]
      : [],
  );
}

const HINTS = ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"];
const TASK_SUPPORT = ["forbidden", "optional", "required"];

function toolFields(tool: Record<string, unknown>): string[] {
  const wrong = wrongFields(tool, [
    ...COMMON,
    ["annotations", isRecord, "an object"],
    ["execution", isRecord, "an object"],
  ]);
  if (isRecord(tool.annotations))
    wrong.push(
      ...wrongFields(
        tool.annotations,
        [["title", string, "a string"], ...HINTS.map((hint): FieldCheck => [hint, boolean, "true or false"])],
        "annotations.",
      ),
    );
  if (isRecord(tool.execution))
    wrong.push(
      ...wrongFields(
        tool.execution,
        [["taskSupport", (v) => TASK_SUPPORT.includes(v as string), `one of ${TASK_SUPPORT.join(", ")}`]],
        "execution.",
      ),
    );
  return wrong;
}

/** A problem per entry of `items` that is not an object or has fields of the wrong type. */
function shapeProblems(
  rule: LintRule,
  kind: "tool" | "prompt" | "resource" | "template",
  key: string,
  items: unknown[],
  fields: (item: Record<string, unknown>) => string[],
): LintProblem[] {
  return items.flatMap((item, index) => {
    if (!isRecord(item))
      return [problem(rule, `${kind}:#${index + 1}`, `The list holds ${JSON.stringify(item)}, not an object`)];
    const wrong = fields(item);
    return wrong.length > 0 ? [problem(rule, targetOf(kind, item[key], index), `${wrong.join("; ")}`)] : [];
  });
}

export const toolShape: LintRule = {
  id: "tool-shape",
  severity: "error",
  summary:
    "Each tool is an object whose fields have the spec's types (title, description, annotations and their hints, icons, execution).",
  fix: "Send each field with the type the spec gives it (server/tools §Tool), or leave it out: a client that checks the list against the schema drops the whole list.",
  check: ({ tools = [] }) => shapeProblems(toolShape, "tool", "name", tools, toolFields),
};

function promptFields(prompt: Record<string, unknown>): string[] {
  const wrong: string[] = [];
  if (typeof prompt.name !== "string" || prompt.name === "")
    wrong.push("it has no name (a non-empty string is required)");
  wrong.push(...wrongFields(prompt, COMMON));
  if (prompt.arguments === undefined) return wrong;
  if (!Array.isArray(prompt.arguments))
    return [...wrong, `arguments is ${JSON.stringify(prompt.arguments)}, not a list`];
  const seen = new Set<string>();
  for (const [index, argument] of prompt.arguments.entries()) {
    if (!isRecord(argument) || typeof argument.name !== "string" || argument.name === "") {
      wrong.push(`argument ${index + 1} has no name`);
      continue;
    }
    if (seen.has(argument.name)) wrong.push(`two arguments are named ${JSON.stringify(argument.name)}`);
    seen.add(argument.name);
    wrong.push(
      ...wrongFields(
        argument,
        [
          ["title", string, "a string"],
          ["description", string, "a string"],
          ["required", boolean, "true or false"],
        ],
        `argument ${argument.name}: `,
      ),
    );
  }
  return wrong;
}

export const promptShape: LintRule = {
  id: "prompt-shape",
  severity: "error",
  summary:
    "Each prompt is an object with a name, and arguments that each have a name of their own and fields of the spec's types.",
  fix: "Send each prompt as server/prompts §Prompt gives it: a name, and arguments each named once.",
  check: ({ prompts = [] }) => shapeProblems(promptShape, "prompt", "name", prompts, promptFields),
};

/** An absolute URI: a scheme, then anything but spaces (RFC 3986 §3). */
const ABSOLUTE_URI = /^[A-Za-z][A-Za-z0-9+.-]*:[^\s]*$/;

function resourceFields(resource: Record<string, unknown>): string[] {
  const wrong: string[] = [];
  if (typeof resource.uri !== "string") wrong.push("it has no uri (a string is required)");
  else if (!ABSOLUTE_URI.test(resource.uri))
    wrong.push(`its uri ${JSON.stringify(resource.uri)} is not an absolute URI`);
  if (typeof resource.name !== "string") wrong.push("it has no name (a string is required)");
  wrong.push(
    ...wrongFields(resource, [
      ...COMMON,
      ["mimeType", string, "a string"],
      ["size", (v) => typeof v === "number" && Number.isInteger(v) && v >= 0, "a whole number of bytes"],
      ["annotations", isRecord, "an object"],
    ]),
  );
  return wrong;
}

export const resourceShape: LintRule = {
  id: "resource-shape",
  severity: "error",
  summary:
    "Each resource has an absolute uri and a name, and fields of the spec's types (mimeType, size, annotations).",
  fix: "Send each resource as server/resources §Resource gives it: an absolute URI with its scheme, and a name.",
  check: ({ resources = [] }) => shapeProblems(resourceShape, "resource", "uri", resources, resourceFields),
};

export { ABSOLUTE_URI };
