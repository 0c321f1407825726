/**
 * Streamable HTTP §Request Metadata and server/tools §x-mcp-header (2026-07-28): which
 * tool parameters travel in `Mcp-Param-{Name}` headers, whether a tool's annotations are
 * valid, the header values of one call, and the `=?base64?…?=` sentinel. Wire format only,
 * shared by client and server; Web APIs only, so it runs beyond Node.
 */

/** One annotated parameter: the `properties` chain to it, its header name and its type. */
export interface HeaderParam {
  path: string[];
  header: string;
  type: "string" | "integer" | "boolean";
}

export type HeaderScan = { valid: true; params: HeaderParam[] } | { valid: false; reason: string };

const ANNOTATION = "x-mcp-header";

/** RFC 9110 §5.1 field-name token (`1*tchar`): no spaces, controls, delimiters or non-ASCII. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** server/tools §x-mcp-header: primitive types only, and not `number`. */
const PRIMITIVE = new Set(["string", "integer", "boolean"]);

/**
 * Keywords whose values are subschemas that are NOT statically reachable: an annotation
 * under any of them invalidates the tool. Instance-valued keywords (`default`, `const`,
 * `enum`, `examples`) are never walked: a key named x-mcp-header there is data.
 */
const SINGLE = ["items", "contains", "additionalProperties", "unevaluatedProperties", "unevaluatedItems"];
const SINGLE_MORE = ["propertyNames", "not", "if", "then", "else", "contentSchema"];
const LISTS = ["prefixItems", "allOf", "anyOf", "oneOf"];
const MAPS = ["patternProperties", "dependentSchemas", "$defs", "definitions"];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The declared type, allowing a nullable form (`["string", "null"]`): a null value sends no header. */
function primitiveType(type: unknown): string | undefined {
  if (typeof type === "string") return PRIMITIVE.has(type) ? type : undefined;
  if (!Array.isArray(type)) return undefined;
  const rest = type.filter((t) => t !== "null");
  return rest.length === 1 && typeof rest[0] === "string" && PRIMITIVE.has(rest[0]) ? rest[0] : undefined;
}

/**
 * Checks every constraint of server/tools §x-mcp-header on a tool's inputSchema and
 * collects the annotated parameters. The first violation makes the whole tool invalid.
 * `$ref` is never followed (an annotation behind one is not statically reachable anyway).
 */
export function scanHeaderParams(inputSchema: unknown): HeaderScan {
  const params: HeaderParam[] = [];
  const seen = new Map<string, string>();

  const visit = (node: unknown, path: string[], reachable: boolean): string | undefined => {
    if (!isObject(node)) return undefined;
    if (ANNOTATION in node) {
      const where = path.length ? path.join(".") : "the schema root";
      if (!reachable || path.length === 0)
        return `${where}: x-mcp-header is allowed only on a property reached through "properties" alone`;
      const header = node[ANNOTATION];
      if (typeof header !== "string" || header === "") return `${where}: x-mcp-header must be a non-empty string`;
      if (!TOKEN.test(header)) return `${where}: x-mcp-header ${JSON.stringify(header)} is not an HTTP token`;
      const type = primitiveType(node.type);
      if (type === undefined)
        return `${where}: x-mcp-header needs type string, integer or boolean, not ${JSON.stringify(node.type ?? "none")}`;
      const other = seen.get(header.toLowerCase());
      if (other !== undefined)
        return `${where}: x-mcp-header ${JSON.stringify(header)} repeats ${JSON.stringify(other)}`;
      seen.set(header.toLowerCase(), header);
      params.push({ path, header, type: type as HeaderParam["type"] });
    }
    const properties = node.properties;
    if (isObject(properties)) {
      for (const [name, child] of Object.entries(properties)) {
        const fault = visit(child, [...path, name], reachable);
        if (fault) return fault;
      }
    }
    const unreachable: unknown[] = [];
    for (const key of [...SINGLE, ...SINGLE_MORE]) if (key in node) unreachable.push(node[key]);
    for (const key of LISTS) if (Array.isArray(node[key])) unreachable.push(...(node[key] as unknown[]));
    for (const key of MAPS) if (isObject(node[key])) unreachable.push(...Object.values(node[key]));
    for (const child of unreachable) {
      const fault = visit(child, [...path, "…"], false);
      if (fault) return fault;
    }
    return undefined;
  };

  const fault = visit(inputSchema, [], true);
  return fault ? { valid: false, reason: fault } : { valid: true, params };
}

/** The value at a parameter's path as its header carries it; undefined when absent or null. */
export function headerParamValue(args: unknown, param: HeaderParam): string | undefined {
  let value: unknown = args;
  for (const key of param.path) value = isObject(value) ? value[key] : undefined;
  if (typeof value === "string") return value;
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return undefined;
}

/**
 * The `Mcp-Param-*` headers for one call, as plain strings (the HTTP transport encodes
 * them): a string as it is, an integer in decimal, a boolean as `true`/`false`. An absent
 * or null value sends no header. Values of other types are left to the server's argument
 * validation and send no header.
 */
export function headerParamValues(params: HeaderParam[], args: Record<string, unknown>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const param of params) {
    const text = headerParamValue(args, param);
    if (text !== undefined) headers[`Mcp-Param-${param.header}`] = text;
  }
  return headers;
}

const SENTINEL_PREFIX = "=?base64?";
const SENTINEL_SUFFIX = "?=";

/**
 * transports §Value Encoding: a value goes as is when it is visible ASCII and spaces with
 * no space at either end; otherwise (non-ASCII, control characters including tab,
 * leading or trailing whitespace) as `=?base64?…?=` of its UTF-8 bytes. A plain value
 * that looks like the sentinel is encoded too, so it cannot be misread. An empty value is
 * encoded as well: intermediaries may drop an empty header, and the server would then
 * see a value in the body without its header.
 */
export function encodeHeaderValue(value: string): string {
  const plain =
    value !== "" &&
    /^[\x20-\x7e]*$/.test(value) &&
    value.trim() === value &&
    !(value.startsWith(SENTINEL_PREFIX) && value.endsWith(SENTINEL_SUFFIX));
  if (plain) return value;
  let binary = "";
  for (const byte of new TextEncoder().encode(value)) binary += String.fromCharCode(byte);
  return `${SENTINEL_PREFIX}${btoa(binary)}${SENTINEL_SUFFIX}`;
}

/**
 * Reads a header value: surrounding whitespace goes (RFC 9110 §5.5), a sentinel is
 * decoded. Undefined when a sentinel holds invalid Base64 (padding or alphabet).
 */
export function decodeHeaderValue(raw: string): string | undefined {
  const value = raw.trim();
  if (
    !(
      value.startsWith(SENTINEL_PREFIX) &&
      value.endsWith(SENTINEL_SUFFIX) &&
      value.length >= SENTINEL_PREFIX.length + SENTINEL_SUFFIX.length
    )
  ) {
    return value;
  }
  const b64 = value.slice(SENTINEL_PREFIX.length, value.length - SENTINEL_SUFFIX.length);
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(b64) || b64.length % 4 !== 0) return undefined;
  const binary = atob(b64);
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}
