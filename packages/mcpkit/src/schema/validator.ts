import { createRequire } from "node:module";
import type { JsonSchema } from "../protocol/types/features.js";
import { isStandardSchema, type SchemaInput, standardToJsonSchema } from "./standard.js";

export type Validation<T = unknown> = { ok: true; value: T } | { ok: false; message: string };

/** Checks one value. Synchronous whenever the schema is (JSON Schema and most Standard Schemas). */
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

// Ajv is loaded on first use: a server declaring only Standard Schemas never pays for it.
type AjvInstance = {
  compile(schema: object): ((value: unknown) => boolean) & {
    errors?: { instancePath: string; message?: string; params?: Record<string, unknown> }[] | null;
  };
};
const ajvByDialect = new Map<string, AjvInstance>();

function ajvFor(dialect: string): AjvInstance {
  const cached = ajvByDialect.get(dialect);
  if (cached) return cached;
  const require = createRequire(import.meta.url);
  const module =
    dialect === "draft-07"
      ? require("ajv")
      : dialect === "2019-09"
        ? require("ajv/dist/2019")
        : require("ajv/dist/2020");
  const Ajv = module.default ?? module;
  // strict: false keeps unknown keywords (x-mcp-header, enumNames) legal; addUsedSchema: false
  // lets two tools share an $id.
  const ajv = new Ajv({ strict: false, addUsedSchema: false, allErrors: false });
  const formats = require("ajv-formats");
  (formats.default ?? formats)(ajv);
  ajvByDialect.set(dialect, ajv);
  return ajv;
}

function dialectOf(schema: JsonSchema): string {
  const uri = typeof schema.$schema === "string" ? schema.$schema : "";
  if (uri.includes("draft-07") || uri.includes("draft-06")) return "draft-07";
  if (uri.includes("2019-09")) return "2019-09";
  return "2020-12"; // SEP-1613: 2020-12 is the default dialect.
}

const JSON_TYPES = new Set(["object", "array", "string", "number", "integer", "boolean", "null"]);

/** What can be checked without Ajv: a schema object whose `type` names JSON types. */
function shapeProblem(schema: JsonSchema): string | undefined {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return "a schema must be an object";
  const type = (schema as { type?: unknown }).type;
  if (type === undefined) return undefined;
  const types = Array.isArray(type) ? type : [type];
  const bad = types.find((t) => typeof t !== "string" || !JSON_TYPES.has(t));
  return bad === undefined ? undefined : `"type" must name JSON types, not ${JSON.stringify(bad)}`;
}

/**
 * A JSON Schema validator. Ajv compiles it on first use rather than at registration: its
 * load and code generation would otherwise dominate a server's start-up (most requests a
 * fresh server sees are lists, which need no validation). The shape is checked at once.
 */
export function compileJsonSchema<T>(schema: JsonSchema): Validator<T> {
  const problem = shapeProblem(schema);
  if (problem) throw new TypeError(`Invalid JSON Schema: ${problem}`);
  let check: ReturnType<AjvInstance["compile"]> | undefined;
  return (value) => {
    if (!check) {
      try {
        check = ajvFor(dialectOf(schema)).compile(schema);
      } catch (error) {
        throw new TypeError(`Invalid JSON Schema: ${(error as Error).message}`);
      }
    }
    if (check(value)) return { ok: true, value: value as T };
    const message = (check.errors ?? [])
      .map((e) => {
        const where = e.instancePath ? e.instancePath.slice(1).replaceAll("/", ".") : "";
        const extra = e.params?.additionalProperty ? ` (${String(e.params.additionalProperty)})` : "";
        return `${where ? `${where}: ` : ""}${e.message ?? "is invalid"}${extra}`;
      })
      .join("; ");
    return { ok: false, message: message || "does not match the schema" };
  };
}
