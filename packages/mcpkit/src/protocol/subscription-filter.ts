import type { JsonRpcNotification } from "../jsonrpc/types.js";
import type { ServerCapabilities } from "./types/capabilities.js";
import type { SubscriptionFilter } from "./types/modern.js";

/**
 * basic/patterns/subscriptions §Notification Filter: what a filter asks for, what a server
 * can honour of it, and which notification it selects. The server acknowledges with the
 * honoured part; the client builds the same answer for legacy servers from their
 * capabilities, so both eras agree on what a subscription delivers.
 */

const LIST_FLAGS = {
  "notifications/tools/list_changed": "toolsListChanged",
  "notifications/prompts/list_changed": "promptsListChanged",
  "notifications/resources/list_changed": "resourcesListChanged",
} as const;

/** The part of `wanted` a server with `caps` can deliver; URIs are kept as given (deduplicated). */
export function honoredFilter(wanted: SubscriptionFilter, caps: ServerCapabilities): SubscriptionFilter {
  const honored: SubscriptionFilter = {};
  if (wanted.toolsListChanged && caps.tools?.listChanged) honored.toolsListChanged = true;
  if (wanted.promptsListChanged && caps.prompts?.listChanged) honored.promptsListChanged = true;
  if (wanted.resourcesListChanged && caps.resources?.listChanged) honored.resourcesListChanged = true;
  if (Array.isArray(wanted.resourceSubscriptions) && caps.resources?.subscribe)
    honored.resourceSubscriptions = [
      ...new Set(wanted.resourceSubscriptions.filter((u): u is string => typeof u === "string")),
    ];
  return honored;
}

/** A filter read from the wire, keeping only fields of the right type. */
export function readFilter(value: unknown): SubscriptionFilter {
  const raw = (typeof value === "object" && value !== null ? value : {}) as Record<string, unknown>;
  const filter: SubscriptionFilter = {};
  for (const key of ["toolsListChanged", "promptsListChanged", "resourcesListChanged"] as const)
    if (typeof raw[key] === "boolean") filter[key] = raw[key];
  if (Array.isArray(raw.resourceSubscriptions))
    filter.resourceSubscriptions = raw.resourceSubscriptions.filter((u): u is string => typeof u === "string");
  return filter;
}

/** Whether `filter` selects `notification`. */
export function filterWants(
  filter: SubscriptionFilter,
  notification: Pick<JsonRpcNotification, "method" | "params">,
): boolean {
  const flag = Object.hasOwn(LIST_FLAGS, notification.method)
    ? LIST_FLAGS[notification.method as keyof typeof LIST_FLAGS]
    : undefined;
  if (flag) return filter[flag] === true;
  if (notification.method === "notifications/resources/updated")
    return filter.resourceSubscriptions?.includes(notification.params?.uri as string) ?? false;
  return false;
}
