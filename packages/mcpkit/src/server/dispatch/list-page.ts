import type { JsonObject } from "../../jsonrpc/types.js";
import type { FeatureSet, Keyed } from "../registry/feature-set.js";
import { type Guarded, visible } from "./authorization.js";
import { encodeDescriptor } from "./encode.js";
import type { Call } from "./method.js";

/** What every list holds: a definition to send, and the scopes a caller needs to see it. */
interface Listed extends Keyed, Guarded {
  readonly definition: object;
}

/**
 * One page of a list (server/utilities/pagination) as this caller may see it, each
 * definition fitted to the revision; `wrap` names the list in the result
 * (`(tools) => ({ tools })`).
 */
export function listPage<T extends Listed, R extends object>(
  set: FeatureSet<T>,
  params: JsonObject,
  call: Call,
  wrap: (items: T["definition"][]) => R,
): R | (R & { nextCursor: string }) {
  const page = set.page(params.cursor, call.server.pageSize, (item) => visible(item, call));
  const items = page.items.map((item) => encodeDescriptor(item.definition, call.peer.rules));
  return page.nextCursor === undefined ? wrap(items) : { ...wrap(items), nextCursor: page.nextCursor };
}
