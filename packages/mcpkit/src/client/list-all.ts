import type { JsonObject } from "../jsonrpc/types.js";
import type { ListFetch } from "./list-cache.js";

/**
 * Every page of a list (server/utilities/pagination). With `ttl` (2026-07-28) the list
 * stays fresh until the earliest page's `ttlMs` runs out, each page's clock starting when
 * it arrived (server/utilities/caching §Interaction with Pagination; absent or negative
 * counts as 0); without, until a list_changed notification.
 */
export async function listAll<T>(
  request: (method: string, params: JsonObject | undefined) => Promise<JsonObject>,
  method: string,
  key: string,
  ttl: boolean,
): Promise<ListFetch<T>> {
  const items: T[] = [];
  const seen = new Set<string>();
  let freshUntil = Number.POSITIVE_INFINITY;
  let cursor: string | undefined;
  do {
    const page = await request(method, cursor === undefined ? undefined : { cursor });
    if (ttl)
      freshUntil = Math.min(
        freshUntil,
        Date.now() + (typeof page.ttlMs === "number" && page.ttlMs > 0 ? page.ttlMs : 0),
      );
    items.push(...((page[key] as T[] | undefined) ?? []));
    cursor = typeof page.nextCursor === "string" ? page.nextCursor : undefined;
    // A server that repeats a cursor would loop forever.
    if (cursor !== undefined && seen.has(cursor)) throw new Error(`${method}: the server repeated a cursor`);
    if (cursor !== undefined) seen.add(cursor);
  } while (cursor !== undefined);
  return { items, freshUntil };
}
