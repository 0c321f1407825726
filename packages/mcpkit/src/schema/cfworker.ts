import type { JsonSchema } from "../protocol/types/features.js";
import type { JsonSchemaCheck, JsonSchemaDialect } from "./json-schema-check.js";

const DRAFTS = { "draft-07": "7", "2019-09": "2019-09", "2020-12": "2020-12" } as const;

/**
 * Checks with @cfworker/json-schema, which walks the schema for every value instead of
 * generating code: slower than Ajv, but it runs where code generation is refused.
 */
export async function cfworkerCheck(schema: JsonSchema, dialect: JsonSchemaDialect): Promise<JsonSchemaCheck> {
  const { Validator } = await import("@cfworker/json-schema");
  // It annotates the schema objects it is given; the published schema stays untouched.
  const validator = new Validator(structuredClone(schema) as object, DRAFTS[dialect], true);
  return (value) => {
    const { valid, errors } = validator.validate(value);
    if (valid) return undefined;
    // Errors run from the outermost keyword to the innermost; the innermost says most,
    // unless it is a bare `false` schema (an additional property), whose parent names it.
    const inner = errors.findLast((e) => e.keyword !== "false") ?? errors.at(-1);
    if (!inner) return "does not match the schema";
    const where = inner.instanceLocation.replace(/^#\/?/, "").replaceAll("/", ".");
    return `${where ? `${where}: ` : ""}${inner.error}`;
  };
}
