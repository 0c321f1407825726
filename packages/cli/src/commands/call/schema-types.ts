/**
 * Just enough of JSON Schema to read a tool's inputSchema from the command line: which
 * JSON types a property takes, following local `$ref`s and unions. Validation is the
 * server's job; this only decides how to read `key=value`.
 */
export type JsonSchema = Record<string, unknown>;

export type JsonType = "string" | "number" | "integer" | "boolean" | "object" | "array" | "null";

const asSchema = (value: unknown): JsonSchema | undefined =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? (value as JsonSchema) : undefined;

/** Follows a `#/…` JSON pointer inside the root schema; other references stay unresolved. */
export function resolveRef(schema: JsonSchema, root: JsonSchema): JsonSchema {
  let current = schema;
  for (let hops = 0; typeof current.$ref === "string" && hops < 16; hops++) {
    const ref = current.$ref as string;
    if (!ref.startsWith("#")) return current;
    let target: unknown = root;
    for (const part of ref.slice(1).split("/").filter(Boolean))
      target = asSchema(target)?.[part.replaceAll("~1", "/").replaceAll("~0", "~")];
    const next = asSchema(target);
    if (!next) return current;
    current = next;
  }
  return current;
}

/** The JSON types `schema` admits; empty when it does not say (anything goes). */
export function typesOf(schema: JsonSchema | undefined, root: JsonSchema): Set<JsonType> {
  const types = new Set<JsonType>();
  if (!schema) return types;
  const resolved = resolveRef(schema, root);
  const declared = resolved.type;
  for (const type of Array.isArray(declared) ? declared : declared === undefined ? [] : [declared])
    types.add(type as JsonType);
  if ("const" in resolved) types.add(jsonTypeOf(resolved.const));
  if (Array.isArray(resolved.enum)) for (const value of resolved.enum) types.add(jsonTypeOf(value));
  for (const key of ["anyOf", "oneOf", "allOf"]) {
    const branches = resolved[key];
    if (Array.isArray(branches))
      for (const branch of branches) for (const t of typesOf(asSchema(branch), root)) types.add(t);
  }
  return types;
}

export function jsonTypeOf(value: unknown): JsonType {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value as JsonType;
}

export function propertiesOf(schema: JsonSchema): Record<string, JsonSchema> {
  return (asSchema(schema.properties) ?? {}) as Record<string, JsonSchema>;
}

export function requiredOf(schema: JsonSchema): string[] {
  return Array.isArray(schema.required) ? schema.required.filter((n): n is string => typeof n === "string") : [];
}

/** The schema of an array's items, when it has one. */
export function itemsOf(schema: JsonSchema, root: JsonSchema): JsonSchema | undefined {
  return asSchema(resolveRef(schema, root).items);
}
