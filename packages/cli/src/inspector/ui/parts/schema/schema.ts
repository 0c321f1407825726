/**
 * JSON Schema as the form reads it (a tool's inputSchema, an elicitation's
 * requestedSchema): the keywords it draws a form from, and the pure functions that work a
 * schema out (local $refs, allOf, nullable types, enums, starting values). No DOM: tested
 * in process (schema.test.ts).
 */

/** The keywords the form reads. A server's schema is only JSON: each is checked where it is used. */
export interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  /** The legacy titles of an enum's values, in its order. */
  enumNames?: unknown[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  allOf?: Schema[];
  const?: unknown;
  default?: unknown;
  title?: string;
  description?: string;
  format?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  /** A number (2020-12), or true beside minimum (draft-04). */
  exclusiveMinimum?: number | boolean;
  exclusiveMaximum?: number | boolean;
  multipleOf?: number;
  minLength?: number;
  maxLength?: number;
  /** OpenAPI's way of allowing null. */
  nullable?: boolean;
  examples?: unknown[];
  $ref?: string;
  [keyword: string]: unknown;
}

/** A schema given as JSON: an object is one; anything else allows anything ({}). */
export const schemaOf = (value: unknown): Schema =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Schema) : {};

/** The names a schema says are required (ignoring what is not a list of names). */
export const requiredOf = (schema: Schema): string[] =>
  Array.isArray(schema.required) ? schema.required.filter((name) => typeof name === "string") : [];

/** The properties of an object schema, each a schema. */
export const propertiesOf = (schema: Schema): [string, Schema][] =>
  Object.entries(schemaOf(schema.properties)).map(([name, prop]) => [name, schemaOf(prop)]);

/** Follows a local $ref (#/$defs/x, #/definitions/x); allOf members are merged. */
export function resolve(schema: Schema | undefined, root: Schema, depth = 0): Schema {
  if (!schema || typeof schema !== "object") return {};
  let s = schema;
  if (typeof s.$ref === "string" && s.$ref.startsWith("#/") && depth < 16) {
    let target: unknown = root;
    for (const part of s.$ref.slice(2).split("/"))
      target = (target as Record<string, unknown> | undefined)?.[part.replace(/~1/g, "/").replace(/~0/g, "~")];
    const { $ref: _r, ...rest } = s;
    s = { ...resolve(schemaOf(target), root, depth + 1), ...rest };
  }
  if (Array.isArray(s.allOf)) {
    const merged: Schema = { ...s };
    delete merged.allOf;
    for (const part of s.allOf) {
      const r = resolve(schemaOf(part), root, depth + 1);
      merged.properties = { ...schemaOf(merged.properties), ...schemaOf(r.properties) } as Record<string, Schema>;
      merged.required = [...requiredOf(merged), ...requiredOf(r)];
      merged.type ??= r.type;
    }
    return merged;
  }
  return s;
}

/** The non-null type of a schema, and whether null is allowed too. */
export function typeOf(schema: Schema): { type: string | undefined; nullable: boolean } {
  if (Array.isArray(schema.type)) {
    const types = schema.type.filter((t) => t !== "null");
    return { type: types.length === 1 ? types[0] : undefined, nullable: types.length < schema.type.length };
  }
  const variants = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(variants) && variants.some((v) => schemaOf(v).type === "null")) {
    const rest = variants.filter((v) => schemaOf(v).type !== "null");
    if (rest.length === 1) return { ...typeOf(schemaOf(rest[0])), nullable: true };
  }
  if (schema.type === undefined) {
    if (schema.properties) return { type: "object", nullable: schema.nullable === true };
    if (schema.enum) return { type: "string", nullable: false };
  }
  return { type: typeof schema.type === "string" ? schema.type : undefined, nullable: schema.nullable === true };
}

/** A choice of an enum field: its value, and the title shown for it. */
export interface Choice {
  value: unknown;
  title: string;
}

/** The choices of an enum field, with their titles (plain, titled oneOf/anyOf consts, legacy enumNames). */
export function choicesOf(schema: Schema): Choice[] | undefined {
  if (Array.isArray(schema.enum))
    return schema.enum.map((value, i) => ({
      value,
      title: String((Array.isArray(schema.enumNames) ? schema.enumNames[i] : undefined) ?? value),
    }));
  const variants = schema.oneOf ?? schema.anyOf;
  if (Array.isArray(variants) && variants.length > 0 && variants.every((v) => "const" in schemaOf(v)))
    return variants.map((v) => ({ value: v.const, title: String(v.title ?? v.const) }));
  return undefined;
}

/** The value a form starts with: defaults, and required objects filled in. */
export function initialValue(schema: unknown, root: Schema = schemaOf(schema)): unknown {
  const s = resolve(schemaOf(schema), root);
  if (s.default !== undefined) return structuredClone(s.default);
  if (s.const !== undefined) return structuredClone(s.const);
  if (typeOf(s).type === "object" && s.properties) {
    const value: Record<string, unknown> = {};
    const required = requiredOf(s);
    for (const [name, prop] of propertiesOf(s)) {
      const resolved = resolve(prop, root);
      const start = resolved.default !== undefined || required.includes(name) ? initialValue(prop, root) : undefined;
      if (start !== undefined) value[name] = start;
    }
    return value;
  }
  return undefined;
}

/** A form's value as a call's arguments: the object it is, or none (a form of an object schema gives an object). */
export const argumentsOf = (value: unknown): Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

/** An object none of whose fields was given a value (cleared text fields count as not given). */
export const isBlankObject = (value: unknown): boolean =>
  typeof value === "object" &&
  value !== null &&
  !Array.isArray(value) &&
  Object.values(value).every((v) => v === undefined || v === "");

/** The value of an object after one field changed: `undefined` removes the field. */
export function withField(object: unknown, name: string, next: unknown): Record<string, unknown> {
  const copy = { ...(object && typeof object === "object" && !Array.isArray(object) ? object : {}) } as Record<
    string,
    unknown
  >;
  if (next === undefined) delete copy[name];
  else copy[name] = next;
  return copy;
}

/** The list of a multiple choice after one choice was ticked or not: kept in the choices' order. */
export function toggleChoice(choices: Choice[], list: unknown[], value: unknown, on: boolean): unknown[] {
  return on
    ? choices.filter((c) => c.value === value || list.includes(c.value)).map((c) => c.value)
    : list.filter((v) => v !== value);
}
