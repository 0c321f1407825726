import type { JsonSchema } from "../protocol/types/features.js";
import { ajvCheck } from "./ajv.js";
import { cfworkerCheck } from "./cfworker.js";
import { codeGenerationAllowed, isCodeGenerationRefused } from "./code-generation.js";
import { dialectOf, type JsonSchemaCheck } from "./json-schema-check.js";

/**
 * Which library checks raw JSON Schemas:
 * - `"auto"` (default): Ajv where the runtime compiles code from strings, else
 *   @cfworker/json-schema (Cloudflare Workers, Node with --disallow-code-generation-from-strings);
 * - `"ajv"`: Ajv always (it generates code: fastest, but refused on such runtimes);
 * - `"cfworker"`: @cfworker/json-schema always (no code generation).
 */
export type JsonSchemaValidator = "auto" | "ajv" | "cfworker";

let choice: JsonSchemaValidator = "auto";

/**
 * Chooses the JSON Schema validator for schemas checked from now on. Schemas are compiled
 * on their first use, so call this at start-up, before the server serves.
 */
export function setJsonSchemaValidator(validator: JsonSchemaValidator): void {
  if (validator !== "auto" && validator !== "ajv" && validator !== "cfworker")
    throw new TypeError(`Unknown JSON Schema validator "${String(validator)}": use "auto", "ajv" or "cfworker"`);
  choice = validator;
}

/** The validator `"auto"` stands for here. */
export function jsonSchemaValidatorInUse(): "ajv" | "cfworker" {
  if (choice !== "auto") return choice;
  return codeGenerationAllowed() ? "ajv" : "cfworker";
}

/** Compiles a JSON Schema with the chosen validator; its errors say what to fix. */
export async function compileJsonSchemaCheck(schema: JsonSchema): Promise<JsonSchemaCheck> {
  const dialect = dialectOf(schema);
  const validator = jsonSchemaValidatorInUse();
  try {
    return await (validator === "ajv" ? ajvCheck(schema, dialect) : cfworkerCheck(schema, dialect));
  } catch (error) {
    if (validator === "ajv" && isCodeGenerationRefused(error)) {
      // The runtime allowed a test function but refused Ajv's: fall back where we chose.
      if (choice === "auto") return cfworkerCheck(schema, dialect);
      throw new Error(
        `Ajv cannot compile JSON Schemas here: this runtime refuses code generation from strings (${String(error)}). ` +
          'Use setJsonSchemaValidator("cfworker") or the default "auto", which picks an eval-free validator on such runtimes',
      );
    }
    throw new TypeError(`Invalid JSON Schema: ${(error as Error).message}`);
  }
}
