/**
 * A JSON Schema that a peer wrote, made safe to check that peer's values against: without
 * the keywords that run the peer's regular expressions. ECMAScript's engine backtracks, so a
 * pattern and a string of a peer's choosing can take it exponential time (`^(a+)+$` against
 * 35 characters: minutes) or a power of the string's length (`\d+\d+$`: minutes for 10 KB),
 * blocking the process. A server's outputSchema checked by a client, and an OpenAPI
 * document's schemas checked against the MCP client's arguments and the API's answers, are
 * such schemas. What goes: `pattern`, and `patternProperties` with the keywords that depend
 * on which properties it matched (`additionalProperties`, `unevaluatedProperties`), so the
 * check is looser, never stricter, than the peer's own.
 */

const ONE = new Set([
  "additionalProperties",
  "unevaluatedProperties",
  "items",
  "additionalItems",
  "unevaluatedItems",
  "contains",
  "not",
  "if",
  "then",
  "else",
  "propertyNames",
  "contentSchema",
]);
const LIST = new Set(["allOf", "anyOf", "oneOf", "prefixItems", "items"]);
const MAP = new Set(["properties", "$defs", "definitions", "dependentSchemas", "dependencies"]);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** `schema` without `pattern` and `patternProperties` anywhere; `schema` itself when it has none. */
export function withoutPatterns<T>(schema: T): T {
  if (!isObject(schema)) return schema;
  let out: Record<string, unknown> | undefined;
  const set = (key: string, value: unknown) => {
    out ??= { ...schema };
    if (value === undefined) delete out[key];
    else out[key] = value;
  };
  if ("pattern" in schema) set("pattern", undefined);
  if ("patternProperties" in schema) {
    set("patternProperties", undefined);
    set("additionalProperties", undefined);
    set("unevaluatedProperties", undefined);
  }
  for (const [key, value] of Object.entries(out ?? schema)) {
    if (LIST.has(key) && Array.isArray(value)) {
      const mapped = value.map(withoutPatterns);
      if (mapped.some((v, i) => v !== value[i])) set(key, mapped);
    } else if (ONE.has(key)) {
      const mapped = withoutPatterns(value);
      if (mapped !== value) set(key, mapped);
    } else if (MAP.has(key) && isObject(value)) {
      const entries = Object.entries(value).map(([k, v]) => [k, withoutPatterns(v)] as const);
      if (entries.some(([k, v]) => v !== value[k])) set(key, Object.fromEntries(entries));
    }
  }
  return (out ?? schema) as T;
}
