import type { SchemaObject } from "./document.js";

/**
 * Where a tool's definitions go: a definition its schema uses once is put in the place that
 * uses it; one used more than once, or recursively, stays in the root's `$defs` and is
 * reached by `$ref: "#/$defs/<name>"` (JSON Schema 2020-12 §8.2.4). Each definition then
 * appears exactly once, so the schema is no larger than the parts of the document it uses.
 */

/** A converted schema, and the references (document pointers) left in it. */
export interface Converted {
  schema: SchemaObject;
  refs: ReadonlySet<string>;
}

/** Keywords whose value is a schema (or, for 3.0's tuple `items`, a list of them). */
export const SCHEMA_KEYWORDS = [
  "items",
  "additionalProperties",
  "not",
  "contains",
  "propertyNames",
  "if",
  "then",
  "else",
  "unevaluatedItems",
  "unevaluatedProperties",
  "additionalItems",
] as const;
/** Keywords whose value is a list of schemas. */
export const SCHEMA_LISTS = ["allOf", "anyOf", "oneOf", "prefixItems"] as const;
/** Keywords whose value maps names to schemas. */
export const SCHEMA_MAPS = ["properties", "patternProperties", "dependentSchemas"] as const;

const ONE = new Set<string>(SCHEMA_KEYWORDS);
const LIST = new Set<string>(SCHEMA_LISTS);
const MAP = new Set<string>(SCHEMA_MAPS);

export const defsRef = (name: string) => `#/$defs/${name}`;
const defsName = (ref: unknown) => (typeof ref === "string" ? /^#\/\$defs\/(.+)$/.exec(ref)?.[1] : undefined);

/** Calls `visit` on every subschema of `schema` (not on `schema` itself), in the positions JSON Schema defines. */
function eachSubschema(schema: SchemaObject, visit: (sub: unknown) => void): void {
  for (const [key, value] of Object.entries(schema)) {
    if (ONE.has(key)) {
      if (Array.isArray(value)) value.forEach(visit);
      else visit(value);
    } else if (LIST.has(key) && Array.isArray(value)) value.forEach(visit);
    else if (MAP.has(key) && typeof value === "object" && value !== null) Object.values(value).forEach(visit);
  }
}

/** A copy of `schema` with `replace` applied to every subschema, and to `schema` itself. */
function mapSchema(schema: unknown, replace: (node: SchemaObject) => SchemaObject | undefined): unknown {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return schema;
  const replaced = replace(schema as SchemaObject);
  if (replaced) return replaced;
  const out: SchemaObject = {};
  for (const [key, value] of Object.entries(schema)) {
    if (ONE.has(key))
      out[key] = Array.isArray(value) ? value.map((v) => mapSchema(v, replace)) : mapSchema(value, replace);
    else if (LIST.has(key) && Array.isArray(value)) out[key] = value.map((v) => mapSchema(v, replace));
    else if (MAP.has(key) && typeof value === "object" && value !== null)
      out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapSchema(v, replace)]));
    else out[key] = value;
  }
  return out;
}

/**
 * `root` with the definitions of `refs` (and of what they reference, transitively) placed:
 * inlined where used once, in `$defs` otherwise. `definition` gives a reference's
 * converted schema and its `$defs` name.
 */
export function placeDefinitions(
  root: SchemaObject,
  refs: Iterable<string>,
  definition: (ref: string) => Converted & { name: string },
): SchemaObject {
  const needed = new Map<string, Converted>();
  const queue = [...refs];
  const seen = new Set<string>();
  for (const ref of queue) {
    if (seen.has(ref)) continue;
    seen.add(ref);
    const found = definition(ref);
    needed.set(found.name, found);
    queue.push(...found.refs);
  }
  if (needed.size === 0) return root;

  // Each definition appears once in the result, so its uses are those in the root and in the definitions.
  const uses = new Map<string, number>();
  const count = (node: unknown) => {
    if (typeof node !== "object" || node === null) return;
    const name = defsName((node as SchemaObject).$ref);
    if (name !== undefined) uses.set(name, (uses.get(name) ?? 0) + 1);
    eachSubschema(node as SchemaObject, count);
  };
  count(root);
  for (const { schema } of needed.values()) count(schema);

  // Used once: in place; more: in $defs; never (a part the caller replaced): left out.
  const kept = new Set([...needed.keys()].filter((name) => (uses.get(name) ?? 0) > 1));
  const placing = new Set<string>();
  const place = (schema: unknown): unknown =>
    mapSchema(schema, (node) => {
      const name = defsName(node.$ref);
      const found = name === undefined ? undefined : needed.get(name);
      if (name === undefined || !found || kept.has(name)) return undefined;
      // Used once, so not within itself; kept as a reference all the same should that ever fail.
      if (placing.has(name)) {
        kept.add(name);
        return node;
      }
      placing.add(name);
      const body = place(found.schema) as SchemaObject;
      placing.delete(name);
      const { $ref: _, ...siblings } = node;
      return { ...body, ...siblings };
    });

  const out = place(root) as SchemaObject;
  const defs: Record<string, unknown> = {};
  for (let before = -1; before !== kept.size; ) {
    before = kept.size;
    for (const name of kept) if (!(name in defs)) defs[name] = place((needed.get(name) as Converted).schema);
  }
  if (Object.keys(defs).length > 0) out.$defs = { ...(out.$defs as object | undefined), ...defs };
  return out;
}
