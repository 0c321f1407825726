import { isObject, sortKeys } from "../json/sorted.js";

/** A JSON Schema as diff reads it: an object (a boolean schema or anything else reads as "any"). */
export type Schema = Record<string, unknown>;

export const schemaOf = (value: unknown): Schema => (isObject(value) ? value : {});

/** Keywords diff does not reason about: a change under one is reported for a person to judge. */
const UNJUDGED = [
  "anyOf",
  "oneOf",
  "allOf",
  "not",
  "$ref",
  "$dynamicRef",
  "if",
  "then",
  "else",
  "dependentRequired",
  "dependentSchemas",
  "patternProperties",
  "prefixItems",
  "contains",
  "unevaluatedProperties",
  "unevaluatedItems",
];

/** Keywords that describe and constrain nothing. */
const ANNOTATIONS = ["description", "title", "examples", "default", "$comment", "deprecated", "readOnly", "writeOnly"];

export const unjudged = (schema: Schema) => UNJUDGED.some((key) => key in schema);

/** The schema without its annotations, at every depth, as comparable text. */
export function constraintsText(schema: unknown): string {
  const strip = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(strip);
    if (!isObject(value)) return value;
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key]) => !ANNOTATIONS.includes(key))
        .map(([key, v]) => [key, key === "enum" || key === "const" ? v : strip(v)]),
    );
  };
  return JSON.stringify(sortKeys(strip(schema)));
}

/** The JSON types a schema takes; undefined when it names none (any type). */
export function typesOf(schema: Schema): Set<string> | undefined {
  const type = schema.type;
  if (typeof type === "string") return new Set([type]);
  if (Array.isArray(type)) return new Set(type.filter((t): t is string => typeof t === "string"));
  return undefined;
}

/** Whether `types` takes values of `type` (a number type takes integers). */
export const takes = (types: Set<string> | undefined, type: string) =>
  types === undefined || types.has(type) || (type === "integer" && types.has("number"));

/** The values a schema allows when it lists them (`enum`, or `const` as one), as comparable text. */
export function valuesOf(schema: Schema): Map<string, unknown> | undefined {
  const list = Array.isArray(schema.enum) ? schema.enum : "const" in schema ? [schema.const] : undefined;
  return list && new Map(list.map((value) => [JSON.stringify(sortKeys(value)), value]));
}

export const describeTypes = (types: Set<string> | undefined) => (types ? [...types].sort().join(" | ") : "any type");

export const LOWER_BOUNDS = ["minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties"] as const;
export const UPPER_BOUNDS = ["maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties"] as const;

export const numberAt = (schema: Schema, key: string) =>
  typeof schema[key] === "number" ? (schema[key] as number) : undefined;

/** The properties an object schema names, and which it requires. */
export function objectParts(schema: Schema): { properties: Record<string, Schema>; required: Set<string> } {
  const properties: Record<string, Schema> = {};
  if (isObject(schema.properties))
    for (const [name, value] of Object.entries(schema.properties)) properties[name] = schemaOf(value);
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r) => typeof r === "string") : []);
  return { properties, required };
}
