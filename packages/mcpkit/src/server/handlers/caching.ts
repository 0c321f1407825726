import type { McpServer } from "../server.js";

/** server/utilities/caching (2026-07-28): how long a result stays fresh, and who may share it. */
export interface CacheHint {
  ttlMs: number;
  scope?: "public" | "private";
}

export interface CachingOptions {
  /** For every cacheable result not configured below (default: ttlMs 0, public). */
  default?: CacheHint;
  discover?: CacheHint;
  tools?: CacheHint;
  prompts?: CacheHint;
  resources?: CacheHint;
  resourceTemplates?: CacheHint;
  /** resources/read results; a resource's own `cache` setting comes first. */
  reads?: CacheHint;
}

const CACHEABLE: Record<string, keyof CachingOptions> = {
  "server/discover": "discover",
  "tools/list": "tools",
  "prompts/list": "prompts",
  "resources/list": "resources",
  "resources/templates/list": "resourceTemplates",
  "resources/read": "reads",
};

export const isCacheable = (method: string) => method in CACHEABLE;

/** The `ttlMs` and `cacheScope` for a result of `method`. */
export function cacheFields(
  server: McpServer,
  method: string,
  own?: CacheHint,
): { ttlMs: number; cacheScope: "public" | "private" } {
  const caching = server.options.caching;
  const key = CACHEABLE[method];
  const hint = own ?? (key ? caching?.[key] : undefined) ?? caching?.default ?? { ttlMs: 0 };
  return { ttlMs: Math.max(0, Math.floor(hint.ttlMs)), cacheScope: hint.scope ?? "public" };
}
