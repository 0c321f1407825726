import {
  deref,
  type MediaType,
  type OpenApiDocument,
  type Parameter,
  type RequestBody,
  type SchemaObject,
} from "./document.js";
import type { SchemaRun } from "./json-schema.js";
import { argumentName } from "./names.js";
import type { OperationInfo } from "./operations.js";

export type Location = Parameter["in"];

/** How one argument becomes part of the request (OAS §4.8.12.4, style and explode). */
export interface ParamPlan {
  arg: string;
  name: string;
  in: Location;
  style: string;
  explode: boolean;
  allowReserved: boolean;
  /** Set for a parameter described by `content` rather than `schema`: the value is sent serialized as this type. */
  mediaType?: string;
}

/** How the body is sent: JSON, a form, multipart (binary parts as base64), text, or raw bytes (base64). */
export type BodyKind = "json" | "form" | "multipart" | "text" | "binary";

export interface BodyPlan {
  arg: string;
  mediaType: string;
  kind: BodyKind;
  required: boolean;
  /** Multipart parts given as base64 (binary fields). */
  binaryParts: Set<string>;
}

export interface RequestPlan {
  method: string;
  path: string;
  params: ParamPlan[];
  body: BodyPlan | undefined;
}

const DEFAULT_STYLE: Record<Location, string> = { path: "simple", query: "form", header: "simple", cookie: "form" };
// OAS §4.8.12.1: these header parameters are ignored; the request sets them itself.
const IGNORED_HEADERS = new Set(["accept", "content-type", "authorization"]);

/** The tool's inputSchema and the plan that turns its arguments into a request. */
export function planInput(
  info: OperationInfo,
  document: OpenApiDocument,
  run: SchemaRun,
): { plan: RequestPlan; schema: SchemaObject } {
  const properties: Record<string, SchemaObject> = {};
  const required: string[] = [];
  const params: ParamPlan[] = [];
  const taken = new Set<string>();
  const claim = (wanted: string, suffix: string) => {
    let arg = taken.has(wanted) ? `${wanted}_${suffix}` : wanted;
    for (let n = 2; taken.has(arg); n++) arg = `${wanted}_${suffix}_${n}`;
    taken.add(arg);
    return arg;
  };

  for (const p of info.parameters) {
    if (p.in === "header" && IGNORED_HEADERS.has(p.name.toLowerCase())) continue;
    if (!(p.in in DEFAULT_STYLE)) continue;
    const arg = claim(argumentName(p.name), p.in);
    const style = p.style ?? DEFAULT_STYLE[p.in];
    const [mediaType, media] = Object.entries(p.content ?? {})[0] ?? [];
    const schema = run.node(media ? media.schema : p.schema);
    properties[arg] = annotate(schema, p.description, p.deprecated);
    if (p.in === "path" || p.required) required.push(arg);
    params.push({
      arg,
      name: p.name,
      in: p.in,
      style,
      explode: p.explode ?? style === "form",
      allowReserved: p.allowReserved === true,
      ...(mediaType !== undefined && { mediaType }),
    });
  }

  let body: BodyPlan | undefined;
  const requestBody = info.operation.requestBody ? deref<RequestBody>(document, info.operation.requestBody) : undefined;
  const chosen = requestBody?.content ? chooseMediaType(requestBody.content) : undefined;
  if (requestBody && chosen) {
    const [mediaType, media, kind] = chosen;
    const arg = claim("body", "payload");
    const binaryParts = new Set<string>();
    properties[arg] = annotate(bodySchema(kind, mediaType, media, run, binaryParts), requestBody.description);
    if (requestBody.required) required.push(arg);
    body = { arg, mediaType, kind, required: requestBody.required === true, binaryParts };
  }

  const root: SchemaObject = { type: "object", properties, additionalProperties: false };
  if (required.length > 0) root.required = required;
  return { plan: { method: info.method, path: info.path, params, body }, schema: run.finish(root) };
}

function annotate(schema: SchemaObject, description: string | undefined, deprecated?: boolean): SchemaObject {
  if (description === undefined && !deprecated) return schema;
  return {
    ...schema,
    ...(description !== undefined && { description }),
    ...(deprecated && { deprecated: true }),
  };
}

const isJson = (type: string) => /^application\/(.+\+)?json$/i.test(type) || type === "*/*+json";

/** The body's media type, most useful first: JSON, a form, multipart, text, then raw bytes. */
function chooseMediaType(content: Record<string, MediaType>): [string, MediaType, BodyKind] | undefined {
  const entries = Object.entries(content).map(([type, media]) => [type.split(";")[0]?.trim() ?? type, media] as const);
  const pick = (test: (type: string) => boolean, kind: BodyKind): [string, MediaType, BodyKind] | undefined => {
    const found = entries.find(([type]) => test(type.toLowerCase()));
    return found ? [found[0], found[1] ?? {}, kind] : undefined;
  };
  return (
    pick(isJson, "json") ??
    pick((t) => t === "application/x-www-form-urlencoded", "form") ??
    pick((t) => t === "multipart/form-data", "multipart") ??
    pick((t) => t.startsWith("text/"), "text") ??
    pick(() => true, "binary")
  );
}

const BASE64: SchemaObject = { type: "string", contentEncoding: "base64" };

function isBinary(schema: SchemaObject): boolean {
  return schema.format === "binary" || typeof schema.contentMediaType === "string";
}

function bodySchema(
  kind: BodyKind,
  mediaType: string,
  media: MediaType,
  run: SchemaRun,
  binaryParts: Set<string>,
): SchemaObject {
  if (kind === "binary") return { ...BASE64, description: `The body (${mediaType}), base64-encoded` };
  if (kind === "text") return { type: "string" };
  const schema = run.node(media.schema);
  if (kind !== "multipart" || typeof schema.properties !== "object") return schema;
  // Multipart: a file part is sent as bytes; the model passes them base64-encoded.
  const properties: Record<string, SchemaObject> = {};
  for (const [name, part] of Object.entries(schema.properties as Record<string, SchemaObject>)) {
    const described = { ...run.target(part), ...part };
    if (isBinary(described)) {
      binaryParts.add(name);
      properties[name] = {
        ...BASE64,
        description: `${described.description ? `${described.description} ` : ""}(a file part: its bytes, base64-encoded)`,
      };
    } else properties[name] = part;
  }
  return { ...schema, properties };
}
