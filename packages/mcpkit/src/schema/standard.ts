import type { StandardJSONSchemaV1, StandardSchemaV1 } from "@standard-schema/spec";
import type { JsonSchema } from "../protocol/types/features.js";

export type { StandardJSONSchemaV1, StandardSchemaV1 };

/** A schema a user may declare with: any Standard Schema (zod 4, valibot, arktype…) or raw JSON Schema. */
export type SchemaInput = StandardSchemaV1 | JsonSchema;

export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  return (
    (typeof value === "object" || typeof value === "function") &&
    value !== null &&
    typeof (value as { "~standard"?: { validate?: unknown } })["~standard"]?.validate === "function"
  );
}

/** The TypeScript type a schema validates to (unknown-keyed object for raw JSON Schema). */
export type Infer<S> = S extends StandardSchemaV1 ? StandardSchemaV1.InferOutput<S> : Record<string, unknown>;

/**
 * JSON Schema for a Standard Schema, through the Standard JSON Schema interface that zod 4,
 * arktype and valibot (via `toStandardJsonSchema`) implement.
 */
export function standardToJsonSchema(schema: StandardSchemaV1, io: "input" | "output" = "input"): JsonSchema {
  const standard: StandardSchemaV1["~standard"] & Partial<StandardJSONSchemaV1["~standard"]> = schema["~standard"];
  const converter = standard.jsonSchema;
  if (!converter) {
    const vendor = schema["~standard"].vendor;
    const hint = vendor === "valibot" ? " (wrap it with toStandardJsonSchema from @valibot/to-json-schema)" : "";
    throw new TypeError(
      `The ${vendor} schema cannot describe itself as JSON Schema${hint}; pass a raw JSON Schema instead`,
    );
  }
  return converter[io]({ target: "draft-2020-12" }) as JsonSchema;
}
