import type { CacheHints } from "../../protocol/types/modern.js";
import type { Registry } from "../registry/registry.js";
import type { CacheHint, CachingOptions } from "../server-options.js";

/** server/utilities/caching (2026-07-28): the cacheable results and the hints they carry. */
const CACHEABLE: Record<string, keyof CachingOptions> = {
  "server/discover": "discover",
  "tools/list": "tools",
  "prompts/list": "prompts",
  "resources/list": "resources",
  "resources/templates/list": "resourceTemplates",
  "resources/read": "reads",
  "skills/list": "skills",
  "skills/get": "skills",
};

export const isCacheable = (method: string) => Object.hasOwn(CACHEABLE, method);

/** The `ttlMs` and `cacheScope` for a result of `method`. */
export function cacheFields(server: Registry, method: string, own?: CacheHint): Required<CacheHints> {
  const caching = server.options.caching;
  const key = CACHEABLE[method];
  const hint = own ?? (key ? caching?.[key] : undefined) ?? caching?.default ?? { ttlMs: 0 };
  return { ttlMs: Math.max(0, Math.floor(hint.ttlMs)), cacheScope: hint.scope ?? "public" };
}
