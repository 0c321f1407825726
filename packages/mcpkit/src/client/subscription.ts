import type { JsonRpcNotification, RequestId } from "../jsonrpc/types.js";
import type { SubscriptionFilter } from "../protocol/types/modern.js";

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
