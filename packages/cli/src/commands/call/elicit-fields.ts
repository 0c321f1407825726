import type { ElicitValue } from "mcpkit";
import type { Context } from "./terminal.js";

type Field = Record<string, unknown>;
type Prompts = typeof import("@inquirer/prompts");

/** What an optional single choice returns when the person picks "(skip)". */
const SKIP = Symbol("skip");

interface Option {
  value: string;
  name: string;
}

/** The choices of an enum field, in each form client/elicitation allows (titled or not, legacy enumNames). */
function optionsOf(field: Field): Option[] | undefined {
  const titled = (Array.isArray(field.oneOf) ? field.oneOf : Array.isArray(field.anyOf) ? field.anyOf : undefined) as
    | { const?: unknown; title?: unknown }[]
    | undefined;
  if (titled) return titled.map((o) => ({ value: String(o.const), name: String(o.title ?? o.const) }));
  if (!Array.isArray(field.enum)) return undefined;
  const names = Array.isArray(field.enumNames) ? field.enumNames : [];
  return field.enum.map((value, i) => ({ value: String(value), name: String(names[i] ?? value) }));
}

/** Checks the string formats and lengths client/elicitation §Supported Schema Types names. */
function checkString(field: Field, value: string): string | true {
  const min = typeof field.minLength === "number" ? field.minLength : undefined;
  const max = typeof field.maxLength === "number" ? field.maxLength : undefined;
  if (min !== undefined && value.length < min) return `At least ${min} characters`;
  if (max !== undefined && value.length > max) return `At most ${max} characters`;
  switch (field.format) {
    case "email":
      return /^[^@\s]+@[^@\s]+$/.test(value) || "An email address, like name@example.com";
    case "uri":
      return URL.canParse(value) || "A URI, like https://example.com";
    case "date":
      return /^\d{4}-\d{2}-\d{2}$/.test(value) || "A date, like 2025-01-31";
    case "date-time":
      return !Number.isNaN(Date.parse(value)) || "A date and time, like 2025-01-31T12:00:00Z";
  }
  return true;
}

/**
 * Asks for one field of an elicitation form with the prompt that fits its schema; returns
 * undefined when an optional field is left empty (it is then left out of the answer).
 */
export async function askField(
  prompts: Prompts,
  name: string,
  field: Field,
  required: boolean,
  context: Context,
): Promise<ElicitValue | undefined> {
  const label = `${String(field.title ?? name)}${field.description ? ` (${String(field.description)})` : ""}${required ? "" : " [optional]"}`;
  const fallback = field.default;

  if (field.type === "array") {
    const items = (field.items ?? {}) as Field;
    const options = optionsOf(items) ?? [];
    const chosen = Array.isArray(fallback) ? fallback.map(String) : [];
    const picked = await prompts.checkbox(
      {
        message: label,
        choices: options.map((o) => ({ ...o, checked: chosen.includes(o.value) })),
        required: required && typeof field.minItems !== "number",
        validate: (selected) => {
          if (typeof field.minItems === "number" && selected.length < field.minItems)
            return `Pick at least ${field.minItems}`;
          if (typeof field.maxItems === "number" && selected.length > field.maxItems)
            return `Pick at most ${field.maxItems}`;
          return true;
        },
      },
      context,
    );
    return picked.length === 0 && !required ? undefined : picked;
  }

  const options = optionsOf(field);
  if (options) {
    const choices: { value: string | typeof SKIP; name: string }[] = [...options];
    if (!required) choices.push({ value: SKIP, name: "(skip)" });
    const picked = await prompts.select({ message: label, choices, default: fallback }, context);
    return picked === SKIP ? undefined : (picked as string);
  }

  if (field.type === "boolean") {
    if (required || typeof fallback === "boolean")
      return prompts.confirm({ message: label, default: fallback === true }, context);
    const picked = await prompts.select<boolean | typeof SKIP>(
      {
        message: label,
        choices: [
          { value: true, name: "yes" },
          { value: false, name: "no" },
          { value: SKIP, name: "(skip)" },
        ],
      },
      context,
    );
    return picked === SKIP ? undefined : picked;
  }

  if (field.type === "number" || field.type === "integer") {
    return prompts.number(
      {
        message: label,
        default: typeof fallback === "number" ? fallback : undefined,
        min: typeof field.minimum === "number" ? field.minimum : undefined,
        max: typeof field.maximum === "number" ? field.maximum : undefined,
        step: field.type === "integer" ? 1 : "any",
        required,
      },
      context,
    );
  }

  const text = await prompts.input(
    {
      message: label,
      default: typeof fallback === "string" ? fallback : undefined,
      required,
      validate: (value) => (value === "" && !required) || checkString(field, value),
    },
    context,
  );
  return text === "" && !required ? undefined : text;
}
