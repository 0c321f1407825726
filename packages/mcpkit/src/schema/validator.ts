import type { JsonSchema } from "../protocol/types/features.js";
import type { JsonSchemaCheck } from "./json-schema-check.js";
import { isStandardSchema, type SchemaInput, standardToJsonSchema } from "./standard.js";
import { compileJsonSchemaCheck } from "./validator-choice.js";

export type Validation<T = unknown> = { ok: true; value: T } | { ok: false; message: string };

/** Checks one value: synchronously for most Standard Schemas, and for a JSON Schema once it is compiled. */
export type Validator<T = unknown> = (value: unknown) => Validation<T> | Promise<Validation<T>>;

export interface CompiledSchema<T = unknown> {
  /** The JSON Schema published on the wire. */
  jsonSchema: JsonSchema;
  validate: Validator<T>;
}

/** Prepares a schema at registration; the returned validator is what runs per call. */
export function compileSchema<T = unknown>(schema: SchemaInput): CompiledSchema<T> {
  if (isStandardSchema(schema)) {
    const standard = schema["~standard"];
    const validate: Validator<T> = (value) => {
      const result = standard.validate(value);
      return result instanceof Promise ? result.then(toValidation<T>) : toValidation<T>(result);
    };
    return { jsonSchema: standardToJsonSchema(schema), validate };
  }
  return { jsonSchema: schema, validate: compileJsonSchema<T>(schema) };
}

type StandardResult = { value?: unknown; issues?: readonly { message: string; path?: readonly unknown[] }[] };

function toValidation<T>(result: StandardResult): Validation<T> {
  if (!result.issues) return { ok: true, value: result.value as T };
  const message = result.issues
    .map((issue) => {
      const path = (issue.path ?? [])
        .map((p) => (typeof p === "object" && p !== null && "key" in p ? (p as { key: unknown }).key : p))
        .join(".");
      return path ? `${path}: ${issue.message}` : issue.message;
    })
    .join("; ");
  return { ok: false, message };
}

const JSON_TYPES = new Set(["object", "array", "string", "number", "integer", "boolean", "null"]);

/** Keywords whose value is one schema, and those whose value is a list or a map of them. */
const ONE_SCHEMA = ["additionalProperties", "items", "contains", "not", "if", "then", "else", "propertyNames"];
const SCHEMA_LIST = ["anyOf", "oneOf", "allOf", "prefixItems", "items"];
const SCHEMA_MAP = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"];
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * What can be checked before compiling: a schema object whose `type`, and every subschema's,
 * names JSON types (the typo that would otherwise fail the tool's first call).
 */
function shapeProblem(schema: JsonSchema): string | undefined {
  if (!isObject(schema)) return "a schema must be an object";
  return typeProblem(schema, "", 0);
}

function typeProblem(schema: Record<string, unknown>, at: string, depth: number): string | undefined {
  const type = schema.type;
  if (type !== undefined) {
    const bad = (Array.isArray(type) ? type : [type]).find((t) => typeof t !== "string" || !JSON_TYPES.has(t));
    if (bad !== undefined) return `${at ? `at ${at}: ` : ""}"type" must name JSON types, not ${JSON.stringify(bad)}`;
  }
  if (depth >= 32) return undefined; // left to the validator
  const sub = (value: unknown, path: string) => (isObject(value) ? typeProblem(value, path, depth + 1) : undefined);
  const join = (key: string) => (at ? `${at}.${key}` : key);
  for (const key of ONE_SCHEMA) {
    const problem = sub(schema[key], join(key));
    if (problem) return problem;
  }
  for (const key of SCHEMA_LIST) {
    const list = schema[key];
    if (!Array.isArray(list)) continue;
    for (let i = 0; i < list.length; i++) {
      const problem = sub(list[i], `${join(key)}[${i}]`);
      if (problem) return problem;
    }
  }
  for (const key of SCHEMA_MAP) {
    const map = schema[key];
    if (!isObject(map)) continue;
    for (const [name, value] of Object.entries(map)) {
      const problem = sub(value, `${join(key)}.${name}`);
      if (problem) return problem;
    }
  }
  return undefined;
}

/**
 * A JSON Schema validator. The schema is compiled on first use rather than at registration:
 * loading the validator library and compiling would otherwise dominate a server's start-up
 * (most requests a fresh server sees are lists, which need no validation). The shape is
 * checked at once. The first call answers with a promise, later ones synchronously.
 */
export function compileJsonSchema<T>(schema: JsonSchema): Validator<T> {
  const problem = shapeProblem(schema);
  if (problem) throw new TypeError(`Invalid JSON Schema: ${problem}`);
  let check: JsonSchemaCheck | undefined;
  let compiling: Promise<JsonSchemaCheck> | undefined;
  const run = (compiled: JsonSchemaCheck, value: unknown): Validation<T> => {
    const message = compiled(value);
    return message === undefined ? { ok: true, value: value as T } : { ok: false, message };
  };
  return (value) => {
    if (check) return run(check, value);
    compiling ??= compileJsonSchemaCheck(schema).then(
      (compiled) => {
        check = compiled;
        return compiled;
      },
      (error: unknown) => {
        compiling = undefined; // tried again on the next call, which fails again with its reason
        throw error;
      },
    );
    return compiling.then((compiled) => run(compiled, value));
  };
}
