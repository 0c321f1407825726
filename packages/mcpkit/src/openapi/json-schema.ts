import { isReference, type OpenApiDocument, resolvePointer, type SchemaObject } from "./document.js";
import {
  type Converted,
  defsRef,
  placeDefinitions,
  SCHEMA_KEYWORDS,
  SCHEMA_LISTS,
  SCHEMA_MAPS,
} from "./schema-defs.js";

/**
 * OpenAPI Schema Objects as the JSON Schema 2020-12 a tool publishes (server/tools
 * §inputSchema, §outputSchema):
 *  - every reference is converted once per document and direction, as `$ref:
 *    "#/$defs/<name>"`; when a tool's schema is finished (schema-defs.ts), one used once
 *    is put in its place, one used more than once or recursively stays in the root's
 *    `$defs`, so a schema never holds two copies of a definition and its size is bounded by
 *    the document's (a document of nested references cannot expand exponentially);
 *  - 3.0's `nullable`, boolean `exclusiveMinimum`/`exclusiveMaximum` and `example` become
 *    their 2020-12 forms; `discriminator`, `xml`, `externalDocs` and `x-` extensions go;
 *  - a request drops `readOnly` properties, a response drops `writeOnly` ones (OAS §4.8.24).
 */
export type Direction = "request" | "response";

const DROPPED = new Set(["discriminator", "xml", "externalDocs", "nullable", "example", "$schema", "$id"]);
const MAX_CHAIN = 32;

/** Converts schemas of one document; each reference once per direction, shared by every tool. */
export class SchemaConverter {
  private readonly converted = new Map<string, Converted>();
  private readonly names = new Map<string, string>();
  private readonly refsByName = new Map<string, string>();

  constructor(private readonly document: OpenApiDocument) {}

  /** Starts one root schema (a tool's input or output): convert its parts with `node`, then `finish` the root. */
  run(direction: Direction): SchemaRun {
    return new SchemaRun(this, direction);
  }

  /** @internal */
  get is30(): boolean {
    return this.document.openapi.startsWith("3.0");
  }

  /** @internal */
  resolve(ref: string): unknown {
    return resolvePointer(this.document, ref);
  }

  /** @internal The `$defs` name of a reference: the same for every tool of the document. */
  nameOf(ref: string): string {
    const known = this.names.get(ref);
    if (known) return known;
    const base = (ref.split("/").at(-1) ?? "def").replace(/[^A-Za-z0-9_.-]/g, "_") || "def";
    let name = base;
    for (let n = 2; this.refsByName.has(name); n++) name = `${base}_${n}`;
    this.names.set(ref, name);
    this.refsByName.set(name, ref);
    return name;
  }

  /** @internal What a reference's target converts to, references inside it left as references. */
  definition(direction: Direction, ref: string): Converted {
    const key = `${direction}:${ref}`;
    let done = this.converted.get(key);
    if (!done) {
      const walk = new Walk(this, direction);
      done = { schema: walk.node(this.resolve(ref)), refs: walk.refs };
      this.converted.set(key, done);
    }
    return done;
  }

  /** @internal The definition a `$defs` name stands for. */
  byName(direction: Direction, name: string): Converted | undefined {
    const ref = this.refsByName.get(name);
    return ref === undefined ? undefined : this.definition(direction, ref);
  }
}

/** One root's conversion: the references its parts use, whose definitions `finish` places. */
export class SchemaRun {
  private readonly refs = new Set<string>();

  constructor(
    private readonly converter: SchemaConverter,
    private readonly direction: Direction,
  ) {}

  /**
   * One part of the root (a parameter's schema, a body, a response). A part that is a
   * reference is its target's schema, so that what the part is (an object, its properties)
   * shows at the top; references further in stay references until `finish`.
   */
  node(schema: unknown): SchemaObject {
    let raw = schema;
    let last: string | undefined;
    for (let hops = 0; isReference(raw); hops++) {
      if (hops >= MAX_CHAIN) throw new Error(`Reference loop at ${(schema as { $ref: string }).$ref}`);
      last = raw.$ref;
      raw = this.converter.resolve(last);
    }
    let out: SchemaObject;
    if (last !== undefined) {
      const done = this.converter.definition(this.direction, last);
      for (const ref of done.refs) this.refs.add(ref);
      out = done.schema;
    } else {
      const walk = new Walk(this.converter, this.direction);
      out = walk.node(raw);
      for (const ref of walk.refs) this.refs.add(ref);
    }
    const description = referenceDescription(schema, this.converter.is30);
    return description === undefined ? out : { ...out, description };
  }

  /** A part's schema with a `$ref` into `$defs` followed (to read what the part is, not to publish). */
  target(schema: SchemaObject): SchemaObject {
    const name = typeof schema.$ref === "string" ? /^#\/\$defs\/(.+)$/.exec(schema.$ref)?.[1] : undefined;
    return (name !== undefined && this.converter.byName(this.direction, name)?.schema) || schema;
  }

  /** The root with every definition it needs put in place or in its `$defs` (schema-defs.ts). */
  finish(root: SchemaObject): SchemaObject {
    return placeDefinitions(root, this.refs, (ref) => ({
      name: this.converter.nameOf(ref),
      ...this.converter.definition(this.direction, ref),
    }));
  }
}

/** 3.1 lets a reference carry its own description beside `$ref`. */
function referenceDescription(schema: unknown, is30: boolean): string | undefined {
  if (is30 || !isReference(schema)) return undefined;
  const description = (schema as { description?: unknown }).description;
  return typeof description === "string" ? description : undefined;
}

/** Converts one schema, references inside it becoming `$ref`s into `$defs` (and collected). */
class Walk {
  readonly refs = new Set<string>();

  constructor(
    private readonly converter: SchemaConverter,
    private readonly direction: Direction,
  ) {}

  node(schema: unknown): SchemaObject {
    if (typeof schema === "boolean") return schema ? {} : { not: {} };
    if (typeof schema !== "object" || schema === null) return {};
    if (isReference(schema)) {
      this.refs.add(schema.$ref);
      const description = referenceDescription(schema, this.converter.is30);
      return { $ref: defsRef(this.converter.nameOf(schema.$ref)), ...(description !== undefined && { description }) };
    }
    return this.object(schema as SchemaObject);
  }

  private object(schema: SchemaObject): SchemaObject {
    const out: SchemaObject = {};
    for (const [key, value] of Object.entries(schema)) {
      if (DROPPED.has(key) || key.startsWith("x-")) continue;
      // 2020-12 `examples` is an array; documents carry OpenAPI's map of Example Objects here too.
      if (key === "examples" && !Array.isArray(value)) continue;
      // The document's regular expressions are never run here, on the client's arguments or
      // the API's answers: a pattern of the document's choosing can take a backtracking
      // engine hours (schema/without-patterns.ts). A pattern is said in the description.
      if (key === "pattern" || key === "patternProperties") continue;
      // A type that is not a JSON type (Swagger's "file") would fail every call.
      if (key === "type") {
        const types = (Array.isArray(value) ? value : [value]).filter((t) => JSON_TYPES.has(t as string));
        if (types.length > 0) out.type = Array.isArray(value) ? types : types[0];
        continue;
      }
      if ((SCHEMA_KEYWORDS as readonly string[]).includes(key)) {
        out[key] = Array.isArray(value)
          ? value.map((v) => this.node(v)) // 3.0-era tuple `items`
          : typeof value === "boolean"
            ? value
            : this.node(value);
      } else if ((SCHEMA_LISTS as readonly string[]).includes(key) && Array.isArray(value)) {
        out[key] = value.map((v) => this.node(v));
      } else if ((SCHEMA_MAPS as readonly string[]).includes(key) && typeof value === "object" && value !== null) {
        out[key] = this.map(key, value as Record<string, unknown>);
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
    if (typeof schema.pattern === "string") {
      const said = typeof out.description === "string" && out.description.trim() !== "" ? `${out.description}\n\n` : "";
      out.description = `${said}Pattern: ${schema.pattern}`;
    }
    // Without patternProperties, these would judge the properties it matched: looser instead.
    if (schema.patternProperties !== undefined) {
      delete out.additionalProperties;
      delete out.unevaluatedProperties;
    }
    if (this.converter.is30) legacyKeywords(schema, out);
    return out;
  }

  private map(key: string, value: Record<string, unknown>): SchemaObject {
    const out: SchemaObject = {};
    const hidden = this.direction === "request" ? "readOnly" : "writeOnly";
    for (const [name, sub] of Object.entries(value)) {
      const resolved = isReference(sub) ? this.peek(sub.$ref) : sub;
      if (key === "properties" && (resolved as SchemaObject | undefined)?.[hidden] === true) continue;
      out[name] = this.node(sub);
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
