/**
 * The parts of an OpenAPI 3.0 / 3.1 document this entry reads (OpenAPI Specification
 * §4.8). Loose on purpose: documents in the wild carry extensions and small deviations,
 * and what is read is checked where it is used.
 */
export interface OpenApiDocument {
  openapi: string;
  info?: { title?: string; version?: string; description?: string };
  servers?: { url: string }[];
  paths?: Record<string, PathItem | undefined>;
  components?: Record<string, Record<string, unknown> | undefined>;
  security?: Record<string, string[]>[];
  tags?: { name: string; description?: string }[];
  [extension: string]: unknown;
}

export type SchemaObject = Record<string, unknown>;
export interface Reference {
  $ref: string;
}

export interface PathItem {
  $ref?: string;
  summary?: string;
  description?: string;
  parameters?: (Parameter | Reference)[];
  [method: string]: unknown;
}

export interface Parameter {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  description?: string;
  required?: boolean;
  deprecated?: boolean;
  style?: string;
  explode?: boolean;
  allowReserved?: boolean;
  schema?: SchemaObject | Reference;
  content?: Record<string, MediaType>;
}

export interface MediaType {
  schema?: SchemaObject | Reference;
  encoding?: Record<string, { contentType?: string; style?: string; explode?: boolean }>;
}

export interface RequestBody {
  description?: string;
  required?: boolean;
  content?: Record<string, MediaType>;
}

export interface Response {
  description?: string;
  content?: Record<string, MediaType>;
}

export interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  deprecated?: boolean;
  parameters?: (Parameter | Reference)[];
  requestBody?: RequestBody | Reference;
  responses?: Record<string, Response | Reference>;
  security?: Record<string, string[]>[];
}

export const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;
export type HttpMethod = (typeof METHODS)[number];

export const isReference = (value: unknown): value is Reference =>
  typeof value === "object" && value !== null && typeof (value as Reference).$ref === "string";

/**
 * Follows a local reference (`#/components/schemas/Pet`) inside the bundled document; the
 * parser has already turned references to other files into local ones.
 */
export function resolvePointer(document: OpenApiDocument, ref: string): unknown {
  if (!ref.startsWith("#")) throw new Error(`Unresolved reference ${ref}: only local references remain after bundling`);
  let node: unknown = document;
  for (const raw of ref.slice(1).split("/").slice(1)) {
    const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (typeof node !== "object" || node === null || !(key in node))
      throw new Error(`Reference ${ref} points at nothing in the document`);
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** A Reference Object followed to what it names (chains included), else the value itself. */
export function deref<T>(document: OpenApiDocument, value: T | Reference): T {
  let node: unknown = value;
  for (let hops = 0; isReference(node); hops++) {
    if (hops > 32) throw new Error(`Reference loop at ${(value as Reference).$ref}`);
    node = resolvePointer(document, node.$ref);
  }
  return node as T;
}
