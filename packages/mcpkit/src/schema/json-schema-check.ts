import type { JsonSchema } from "../protocol/types/features.js";

/** A compiled JSON Schema: undefined when the value matches, else what is wrong with it. */
export type JsonSchemaCheck = (value: unknown) => string | undefined;

export type JsonSchemaDialect = "draft-07" | "2019-09" | "2020-12";

export function dialectOf(schema: JsonSchema): JsonSchemaDialect {
  const uri = typeof schema.$schema === "string" ? schema.$schema : "";
  if (uri.includes("draft-07") || uri.includes("draft-06")) return "draft-07";
  if (uri.includes("2019-09")) return "2019-09";
  return "2020-12"; // SEP-1613: 2020-12 is the default dialect.
}
