import { isReference, type OpenApiDocument, resolvePointer, type SchemaObject } from "./document.js";

/**
 * OpenAPI Schema Objects as the JSON Schema 2020-12 a tool publishes (server/tools
 * §inputSchema, §outputSchema):
 *  - references are inlined; a recursive one becomes `$ref: "#/$defs/<name>"`, with the
 *    definition in the root's `$defs`, so every schema stands alone;
 *  - 3.0's `nullable`, boolean `exclusiveMinimum`/`exclusiveMaximum` and `example` become
 *    their 2020-12 forms; `discriminator`, `xml`, `externalDocs` and `x-` extensions go;
 *  - a request drops `readOnly` properties, a response drops `writeOnly` ones (OAS §4.8.24).
 */
export type Direction = "request" | "response";

const SCHEMA_KEYWORDS = [
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
const SCHEMA_LISTS = ["allOf", "anyOf", "oneOf", "prefixItems"] as const;
const SCHEMA_MAPS = ["properties", "patternProperties", "dependentSchemas"] as const;
const DROPPED = new Set(["discriminator", "xml", "externalDocs", "nullable", "example", "$schema", "$id"]);

/** Converts schemas of one document; remembers conversions that do not recurse, shared across tools. */
export class SchemaConverter {
  private readonly cache = new Map<string, SchemaObject>();

  constructor(private readonly document: OpenApiDocument) {}

  private get legacy(): boolean {
    return this.document.openapi.startsWith("3.0");
  }

  /**
   * Starts one root schema (a tool's input or output): convert its parts with `node`,
   * then put `definitions()` in the root's `$defs`, where `#/$defs/...` points.
   */
  run(direction: Direction): SchemaRun {
    return new SchemaRun(this, direction);
  }

  /** @internal */
  cached(key: string): SchemaObject | undefined {
    return this.cache.get(key);
  }

  /** @internal */
  remember(key: string, schema: SchemaObject): void {
    this.cache.set(key, schema);
  }

  /** @internal */
  resolve(ref: string): unknown {
    return resolvePointer(this.document, ref);
  }

  /** @internal */
  get is30(): boolean {
    return this.legacy;
  }
}

/** One root's conversion: the references being expanded, and the definitions it needs. */
export class SchemaRun {
  private readonly needed = new Map<string, string>(); // ref -> definition name
  private readonly names = new Set<string>();
  private recursed = false;

  constructor(
    private readonly converter: SchemaConverter,
    private readonly direction: Direction,
  ) {}

  definitions(): Record<string, SchemaObject> | undefined {
    if (this.needed.size === 0) return undefined;
    const defs: Record<string, SchemaObject> = {};
    // Converting one definition may need another: loop until every needed one is done.
    for (let done = 0; done < this.needed.size; ) {
      const [ref, name] = [...this.needed.entries()][done] as [string, string];
      defs[name] = this.node(this.converter.resolve(ref), [ref]);
      done++;
    }
    return defs;
  }

  node(schema: unknown, stack: string[] = []): SchemaObject {
    if (typeof schema === "boolean") return schema ? {} : { not: {} };
    if (typeof schema !== "object" || schema === null) return {};
    if (isReference(schema)) return this.reference(schema as SchemaObject & { $ref: string }, stack);
    return this.object(schema as SchemaObject, stack);
  }

  private reference(schema: SchemaObject & { $ref: string }, stack: string[]): SchemaObject {
    const ref = schema.$ref;
    // 3.1 lets a reference carry its own description and summary beside $ref.
    const siblings: SchemaObject = {};
    if (!this.converter.is30 && typeof schema.description === "string") siblings.description = schema.description;
    if (stack.includes(ref) || this.needed.has(ref)) {
      this.recursed = true;
      return { $ref: `#/$defs/${this.defName(ref)}`, ...siblings };
    }
    const key = `${this.direction}:${ref}`;
    const known = this.converter.cached(key);
    if (known) return Object.keys(siblings).length ? { ...known, ...siblings } : known;
    const before = this.recursed;
    this.recursed = false;
    const out = this.node(this.converter.resolve(ref), [...stack, ref]);
    // Only a conversion that never pointed into $defs stands alone, and can be shared.
    if (!this.recursed) this.converter.remember(key, out);
    this.recursed ||= before;
    return Object.keys(siblings).length ? { ...out, ...siblings } : out;
  }

  private defName(ref: string): string {
    const existing = this.needed.get(ref);
    if (existing) return existing;
    const base = (ref.split("/").at(-1) ?? "def").replace(/[^A-Za-z0-9_.-]/g, "_") || "def";
    let name = base;
    for (let n = 2; this.names.has(name); n++) name = `${base}_${n}`;
    this.names.add(name);
    this.needed.set(ref, name);
    return name;
  }

  private object(schema: SchemaObject, stack: string[]): SchemaObject {
    const out: SchemaObject = {};
    for (const [key, value] of Object.entries(schema)) {
      if (DROPPED.has(key) || key.startsWith("x-")) continue;
      // 2020-12 `examples` is an array; documents carry OpenAPI's map of Example Objects here too.
      if (key === "examples" && !Array.isArray(value)) continue;
      // What a validator cannot compile would fail every call: a pattern that is not an
      // ECMAScript regular expression, a type that is not a JSON type (Swagger's "file").
      if (key === "pattern" && !compiles(value)) continue;
      if (key === "type") {
        const types = (Array.isArray(value) ? value : [value]).filter((t) => JSON_TYPES.has(t as string));
        if (types.length > 0) out.type = Array.isArray(value) ? types : types[0];
        continue;
      }
      if ((SCHEMA_KEYWORDS as readonly string[]).includes(key)) {
        out[key] = Array.isArray(value)
          ? value.map((v) => this.node(v, stack)) // 3.0-era tuple `items`
          : typeof value === "boolean"
            ? value
            : this.node(value, stack);
      } else if ((SCHEMA_LISTS as readonly string[]).includes(key) && Array.isArray(value)) {
        out[key] = value.map((v) => this.node(v, stack));
      } else if ((SCHEMA_MAPS as readonly string[]).includes(key) && typeof value === "object" && value !== null) {
        out[key] = this.map(key, value as Record<string, unknown>, stack);
      } else {
        out[key] = value;
      }
    }
    if (Array.isArray(out.required) && out.properties) {
      const kept = (out.required as unknown[]).filter(
        (name) => typeof name === "string" && name in (out.properties as object),
      );
      // A required property dropped for this direction is required no more.
      if (kept.length !== (out.required as unknown[]).length) {
        if (kept.length > 0) out.required = kept;
        else delete out.required;
      }
    }
    // An example that is itself a reference (a document's slip) would read as a schema $ref: left out.
    if (schema.example !== undefined && !isReference(schema.example) && out.examples === undefined)
      out.examples = [schema.example];
    if (this.converter.is30) legacyKeywords(schema, out);
    return out;
  }

  private map(key: string, value: Record<string, unknown>, stack: string[]): SchemaObject {
    const out: SchemaObject = {};
    const hidden = this.direction === "request" ? "readOnly" : "writeOnly";
    for (const [name, sub] of Object.entries(value)) {
      const resolved = isReference(sub) ? this.peek(sub.$ref) : sub;
      if (key === "properties" && (resolved as SchemaObject | undefined)?.[hidden] === true) continue;
      out[name] = this.node(sub, stack);
    }
    return out;
  }

  private peek(ref: string): unknown {
    try {
      return this.converter.resolve(ref);
    } catch {
      return undefined;
    }
  }
}

const JSON_TYPES = new Set(["object", "array", "string", "number", "integer", "boolean", "null"]);

function compiles(pattern: unknown): boolean {
  try {
    new RegExp(pattern as string, "u");
    return typeof pattern === "string";
  } catch {
    return false;
  }
}

/** OpenAPI 3.0's variants of JSON Schema keywords, in their 2020-12 form. */
function legacyKeywords(schema: SchemaObject, out: SchemaObject): void {
  for (const [flag, bound] of [
    ["exclusiveMinimum", "minimum"],
    ["exclusiveMaximum", "maximum"],
  ] as const) {
    if (schema[flag] === true && typeof schema[bound] === "number") {
      out[flag] = schema[bound];
      delete out[bound];
    } else if (typeof schema[flag] === "boolean") delete out[flag];
  }
  if (schema.nullable === true) {
    if (typeof out.type === "string") out.type = [out.type, "null"];
    else if (Array.isArray(out.type) && !out.type.includes("null")) out.type = [...out.type, "null"];
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
    if (out.type === undefined && out.enum === undefined) {
      // A nullable composition (allOf: [$ref], nullable): null, or what it was.
      const { description, ...rest } = out;
      for (const key of Object.keys(out)) delete out[key];
      Object.assign(out, {
        ...(description !== undefined && { description }),
        anyOf: [rest, { type: "null" }],
      });
    }
  }
}
