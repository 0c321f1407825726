import {
  deref,
  type HttpMethod,
  METHODS,
  type OpenApiDocument,
  type Operation,
  type Parameter,
  type PathItem,
} from "./document.js";

/** An operation of the document, with the path item's parameters merged into its own. */
export interface OperationInfo {
  method: HttpMethod;
  path: string;
  operation: Operation;
  /** Path-item and operation parameters, the operation's winning on the same name and location (OAS §4.8.10). */
  parameters: Parameter[];
}

/** Which operations become tools: every field given must match, each by any of its items (docs/openapi.md). */
export interface OperationFilter {
  /** Operations carrying any of these tags. */
  tags?: string[];
  /** Paths, exactly as in the document, `*` matching any characters (`/repos/*`), or patterns. */
  paths?: (string | RegExp)[];
  /** operationIds, or `METHOD /path` (`GET /pets/{petId}`). */
  operations?: string[];
  /** HTTP methods (`get`, `post`…). */
  methods?: string[];
}

export function listOperations(
  document: OpenApiDocument,
  include: OperationFilter | undefined,
  exclude: OperationFilter | undefined,
): OperationInfo[] {
  const out: OperationInfo[] = [];
  for (const [path, rawItem] of Object.entries(document.paths ?? {})) {
    if (!rawItem) continue;
    const item = deref<PathItem>(document, rawItem as PathItem);
    for (const method of METHODS) {
      const operation = item[method] as Operation | undefined;
      if (typeof operation !== "object" || operation === null) continue;
      const info: OperationInfo = { method, path, operation, parameters: mergeParameters(document, item, operation) };
      if (include && !matches(include, info)) continue;
      if (exclude && matches(exclude, info)) continue;
      out.push(info);
    }
  }
  return out;
}

function mergeParameters(document: OpenApiDocument, item: PathItem, operation: Operation): Parameter[] {
  const byKey = new Map<string, Parameter>();
  for (const list of [item.parameters, operation.parameters])
    for (const raw of list ?? []) {
      const parameter = deref<Parameter>(document, raw);
      if (typeof parameter?.name !== "string" || typeof parameter.in !== "string") continue;
      byKey.set(`${parameter.in}:${parameter.name}`, parameter);
    }
  return [...byKey.values()];
}

/** Every field given must match (each by any of its items): `{ paths: ["/pets/*"], methods: ["get"] }` is the GETs under /pets. */
function matches(filter: OperationFilter, { method, path, operation }: OperationInfo): boolean {
  const key = `${method.toUpperCase()} ${path}`;
  return (
    (filter.methods === undefined || filter.methods.some((m) => m.toLowerCase() === method)) &&
    (filter.tags === undefined || (operation.tags ?? []).some((tag) => filter.tags?.includes(tag))) &&
    (filter.paths === undefined || filter.paths.some((p) => pathMatches(p, path))) &&
    (filter.operations === undefined || filter.operations.some((o) => o === operation.operationId || o === key))
  );
}

function pathMatches(pattern: string | RegExp, path: string): boolean {
  if (pattern instanceof RegExp) return pattern.test(path);
  if (!pattern.includes("*")) return pattern === path;
  const source = pattern
    .split("*")
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${source}$`).test(path);
}
