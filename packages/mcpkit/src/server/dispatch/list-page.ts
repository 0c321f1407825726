import type { JsonObject } from "../../jsonrpc/types.js";
import type { FeatureSet, Keyed } from "../registry/feature-set.js";
import { type Guarded, visible } from "./authorization.js";
import type { Call } from "./call.js";
import { encodeDescriptor } from "./encode.js";

/** What every list holds: a definition to send, and the scopes a caller needs to see it. */
interface Listed extends Keyed, Guarded {
  readonly definition: object;
}

/**
 * One page of a list (server/utilities/pagination) as this caller may see it, each
 * definition fitted to the revision, under `key` (tools, prompts, resourceTemplates…).
 */
export function listPage<T extends Listed>(
  set: FeatureSet<T>,
  params: JsonObject,
  call: Call,
  key: string,
): JsonObject {
  const page = set.page(params.cursor, call.server.pageSize, (item) => visible(item, call));
  const items = page.items.map((item) => encodeDescriptor(item.definition, call.peer.rules));
  return page.nextCursor === undefined ? { [key]: items } : { [key]: items, nextCursor: page.nextCursor };
}
