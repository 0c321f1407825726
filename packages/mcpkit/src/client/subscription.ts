import type { JsonRpcNotification, RequestId } from "../jsonrpc/types.js";
import type { SubscriptionFilter } from "./modern-types.js";

/** Receives the change notifications of one subscription. */
export type SubscriptionListener = (notification: JsonRpcNotification) => void;

export interface ListenOptions {
  /** Aborting closes the subscription. */
  signal?: AbortSignal;
  /** How long to wait for the server's acknowledgment, ms (default: the client's request timeout). */
  timeoutMs?: number;
}

/** How a subscription ended. */
export interface SubscriptionEnd {
  /** "closed": by this client; "ended": by the server, gracefully; "lost": the stream dropped or failed. */
  reason: "closed" | "ended" | "lost";
  error?: unknown;
}

/** An open `subscriptions/listen` stream (or, on a legacy server, its emulation). */
export interface Subscription {
  /** basic/patterns/subscriptions: the JSON-RPC id of the listen request; undefined when emulated. */
  readonly id: RequestId | undefined;
  /** What the server agreed to send (§Acknowledgment): a subset of what was asked for. */
  readonly filter: SubscriptionFilter;
  /** Resolves (never rejects) once the subscription has ended. */
  readonly closed: Promise<SubscriptionEnd>;
  /** Ends the subscription: HTTP closes its stream, stdio sends notifications/cancelled. */
  close(): Promise<void>;
}

const LIST_CHANGED: Record<string, keyof SubscriptionFilter> = {
  "notifications/tools/list_changed": "toolsListChanged",
  "notifications/prompts/list_changed": "promptsListChanged",
  "notifications/resources/list_changed": "resourcesListChanged",
};

/** Whether `filter` asked for `notification` (§Notification Filter). */
export function filterWants(filter: SubscriptionFilter, notification: JsonRpcNotification): boolean {
  const flag = LIST_CHANGED[notification.method];
  if (flag) return filter[flag] === true;
  if (notification.method === "notifications/resources/updated")
    return filter.resourceSubscriptions?.includes(notification.params?.uri as string) ?? false;
  return false;
}

/** The acknowledged filter, keeping only fields of the right type. */
export function readFilter(value: unknown): SubscriptionFilter {
  const raw = (typeof value === "object" && value !== null ? value : {}) as Record<string, unknown>;
  const filter: SubscriptionFilter = {};
  for (const key of ["toolsListChanged", "promptsListChanged", "resourcesListChanged"] as const)
    if (typeof raw[key] === "boolean") filter[key] = raw[key];
  if (Array.isArray(raw.resourceSubscriptions))
    filter.resourceSubscriptions = raw.resourceSubscriptions.filter((u): u is string => typeof u === "string");
  return filter;
}
