import type { Client } from "../client/client.js";
import type { JsonObject } from "../jsonrpc/types.js";
import type { Resource, ResourceTemplate } from "../protocol/types/features.js";
import type { McpServer } from "../server/server.js";
import { templateFrom, type Upstream } from "./entries.js";

/** Reading the upstream server's lists, and following its resources. */

/** Every page of one of the upstream server's lists. */
export async function everyPage<T>(
  fetch: (cursor: string | undefined) => Promise<JsonObject | object>,
  key: string,
): Promise<T[]> {
  const items: T[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  do {
    const page = (await fetch(cursor)) as Record<string, unknown>;
    items.push(...((page[key] as T[] | undefined) ?? []));
    cursor = typeof page.nextCursor === "string" ? page.nextCursor : undefined;
    if (cursor !== undefined && seen.has(cursor)) throw new Error(`The upstream server repeated a ${key} cursor`);
    if (cursor !== undefined) seen.add(cursor);
  } while (cursor !== undefined);
  return items;
}

/** Templates this server can match; one it cannot parse is reported and left out. */
export function usableTemplates(templates: ResourceTemplate[], upstream: Upstream, onError: (error: unknown) => void) {
  return templates.flatMap((t) => {
    try {
      return [templateFrom(t, upstream)];
    } catch (error) {
      onError(error);
      return [];
    }
  });
}

/**
 * Subscribes upstream to every listed resource, so its updates can reach the downstream
 * sessions that subscribed (the server sends each only to those).
 */
export async function followUpdates(client: Client, resources: Resource[], subscribed: Set<string>, server: McpServer) {
  const now = new Set(resources.map((r) => r.uri));
  const changes: Promise<void>[] = [];
  for (const uri of now) if (!subscribed.has(uri)) changes.push(client.subscribe(uri));
  for (const uri of subscribed) if (!now.has(uri)) changes.push(client.unsubscribe(uri));
  subscribed.clear();
  for (const uri of now) subscribed.add(uri);
  for (const result of await Promise.allSettled(changes))
    if (result.status === "rejected") server.onError(result.reason);
}
