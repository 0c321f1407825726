import type { JsonRpcMessage } from "../../../jsonrpc/types.js";
import type { EventStore } from "./event-store.js";
import type { HttpAnswer } from "./stream.js";

/** Shared by every session of a handler (one object, not one per session). */
export interface SessionTransportOptions {
  eventStore: EventStore | undefined;
  /** The `retry` advice on SSE streams, ms. */
  retryMs: number;
  keepAliveMs: number;
  /** Finished streams kept for resumption per session. */
  maxFinishedStreams?: number;
  /** Treat a dropped connection as the client cancelling its request (2026-07-28 §Cancellation). */
  cancelOnDisconnect?: boolean;
  /** The HTTP status and headers of a JSON answer (default 200). */
  answer?: (message: JsonRpcMessage) => HttpAnswer;
  /**
   * The event store is shared by nodes (a cluster): stream ids start with the session id,
   * and a GET may resume a stream another node of the session wrote.
   */
  sharedStreams?: boolean;
  /** This node's name in a cluster: a POST's stream id carries it. */
  node?: string;
  /** Whether a node of the cluster is alive (a POST's stream whose node died cannot finish). */
  nodeAlive?: (node: string) => Promise<boolean>;
  /** Told when a session's transport closes. */
  onClosed?: (sessionId: string) => void;
  /** A write, replay or store operation that failed (default: stderr). */
  onError?: (error: unknown) => void;
}
