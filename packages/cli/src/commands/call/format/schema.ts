import type { JsonSchema } from "../schema-types.js";
import { itemsOf, propertiesOf, requiredOf, resolveRef } from "../schema-types.js";

/** A short type for one property, for listings: `number`, `"a" | "b"`, `string[]`. */
export function describeType(schema: JsonSchema, root: JsonSchema): string {
  const resolved = resolveRef(schema, root);
  const literals = Array.isArray(resolved.enum)
    ? resolved.enum
    : Array.isArray(resolved.oneOf) && resolved.oneOf.every((b) => typeof b === "object" && b && "const" in b)
      ? resolved.oneOf.map((b) => (b as { const: unknown }).const)
      : undefined;
  if (literals && literals.length <= 6) return literals.map((v) => JSON.stringify(v)).join(" | ");
  const type = resolved.type;
  if (type === "array") {
    const items = itemsOf(resolved, root);
    const inner = items ? describeType(items, root) : "any";
    return inner.includes(" ") ? `(${inner})[]` : `${inner}[]`;
  }
  if (Array.isArray(type)) return type.join(" | ");
  if (typeof type === "string") return type;
  for (const key of ["anyOf", "oneOf"]) {
    const branches = resolved[key];
    if (Array.isArray(branches)) return branches.map((b) => describeType(b as JsonSchema, root)).join(" | ");
  }
  return "any";
}

/** A tool's parameters as a signature: `a: number, b?: string = "x"`. */
export function signature(root: JsonSchema): string {
  const required = new Set(requiredOf(root));
  return Object.entries(propertiesOf(root))
    .map(([name, schema]) => {
      const optional = required.has(name) ? "" : "?";
      const fallback = "default" in schema ? ` = ${JSON.stringify(schema.default)}` : "";
      return `${name}${optional}: ${describeType(schema, root)}${fallback}`;
    })
    .join(", ");
}
