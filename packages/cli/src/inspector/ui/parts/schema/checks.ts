import type { Schema } from "./schema.js";

/**
 * What the form checks that the browser does not: a string's format (time, date-time), a
 * number's exclusive bounds and multipleOf, text that should be JSON. Each
 * gives the sentence shown under the field, or undefined. No DOM: tested in process.
 */

/** Formats a browser control checks by itself. `time` is not one: `<input type=time>` gives 14:30, RFC 3339 wants 14:30:00Z. */
export const FORMAT_INPUT: Record<string, "date" | "email" | "url"> = {
  date: "date",
  email: "email",
  uri: "url",
  url: "url",
};

/** RFC 3339 §5.6, as JSON Schema's `time` and `date-time` formats use it. */
const TIME = "(?:[01]\\d|2[0-3]):[0-5]\\d:(?:[0-5]\\d|60)(?:\\.\\d+)?(?:[Zz]|[+-](?:[01]\\d|2[0-3]):[0-5]\\d)";
export const FORMAT_CHECKS: Record<string, { re: RegExp; example: string }> = {
  time: { re: new RegExp(`^${TIME}$`), example: "14:30:00Z" },
  "date-time": {
    re: new RegExp(`^\\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\\d|3[01])[Tt]${TIME}$`),
    example: "2026-01-31T14:30:00Z",
  },
};

/**
 * What is wrong with a string the browser cannot tell: its format (time, date-time). A
 * pattern is shown (schemaFacts), never run: the server chose it and the text (a default),
 * and `^(a+)+$` against 40 characters keeps a backtracking engine, and this tab, busy for
 * hours. The server checks its own patterns.
 */
export function stringProblem(schema: Schema, text: string): string | undefined {
  if (text === "") return undefined;
  const format = FORMAT_CHECKS[schema.format as string];
  if (format && !format.re.test(text)) return `Write a ${schema.format} as ${format.example}`;
  return undefined;
}

/** What is wrong with a number the browser's min, max and step do not say. */
export function numberProblem(schema: Schema, value: unknown): string | undefined {
  if (typeof value !== "number") return undefined;
  const { multipleOf } = schema;
  // 2020-12 gives the exclusive bound as a number; draft-04 as `true` beside minimum/maximum.
  const low = schema.exclusiveMinimum === true ? schema.minimum : schema.exclusiveMinimum;
  const high = schema.exclusiveMaximum === true ? schema.maximum : schema.exclusiveMaximum;
  if (typeof low === "number" && value <= low) return `Must be greater than ${low}`;
  if (typeof high === "number" && value >= high) return `Must be less than ${high}`;
  if (typeof multipleOf === "number" && multipleOf > 0 && !Number.isInteger(Number((value / multipleOf).toFixed(9))))
    return `Must be a multiple of ${multipleOf}`;
  return undefined;
}

/** Why a text is not the JSON asked for (any value, or an object for a whole form's arguments). */
export function jsonProblem(text: string, object: boolean): string | undefined {
  if (text.trim() === "") return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return `Not valid JSON: ${(error as Error).message}`;
  }
  if (object && (typeof value !== "object" || value === null || Array.isArray(value)))
    return "The arguments must be a JSON object: { … }";
  return undefined;
}

const characters = (n: number) => `${n} character${n === 1 ? "" : "s"}`;

/** The facts of a field's schema shown under it: its format, bounds, lengths and pattern. */
export function schemaFacts(schema: Schema): string[] {
  const facts = [
    typeof schema.format === "string" && `format: ${schema.format}`,
    typeof schema.minimum === "number" && `≥ ${schema.minimum}`,
    typeof schema.exclusiveMinimum === "number" && `> ${schema.exclusiveMinimum}`,
    typeof schema.maximum === "number" && `≤ ${schema.maximum}`,
    typeof schema.exclusiveMaximum === "number" && `< ${schema.exclusiveMaximum}`,
    typeof schema.minLength === "number" && `at least ${characters(schema.minLength)}`,
    typeof schema.maxLength === "number" && `at most ${characters(schema.maxLength)}`,
    typeof schema.pattern === "string" && `pattern: ${schema.pattern}`,
  ];
  return facts.filter((fact): fact is string => typeof fact === "string");
}
