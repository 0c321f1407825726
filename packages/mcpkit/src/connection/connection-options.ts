import type { JsonObject, JsonRpcNotification, RequestId } from "../jsonrpc/types.js";
import type { MessageInfo } from "../transports/transport.js";
import type { InboundRequest } from "./inbound-request.js";

/** What a Connection is told and what it tells: request options, handlers, a sent request. */

export interface Progress {
  progress: number;
  total?: number;
  message?: string;
}

export interface RequestOptions {
  /** Aborting sends `notifications/cancelled` and rejects the call with the abort reason. */
  signal?: AbortSignal;
  /** Milliseconds without an answer before the call fails; 0 disables. Default: the connection's. */
  timeoutMs?: number;
  /** Progress notifications restart the timeout (default true). */
  resetTimeoutOnProgress?: boolean;
  /** A hard limit that progress cannot extend. */
  maxTotalTimeoutMs?: number;
  /** Receives `notifications/progress` for this call; setting it sends a progressToken. */
  onprogress?: (progress: Progress) => void;
  /** The incoming request this one is made on behalf of (HTTP routes it to that stream). */
  relatedRequestId?: RequestId;
  /** Extra transport headers for this request (HTTP `Mcp-Param-*`). */
  headers?: Record<string, string>;
  /**
   * Told the JSON-RPC id each time the request is sent (a 2026-07-28 call that takes
   * several rounds, or is retried, is sent with a new id each time). For tracing.
   */
  onRequestId?: (id: RequestId) => void;
  /**
   * Told the result of this request if it comes after the request was cancelled (timed
   * out or aborted): the answer crossed the cancellation on the wire. A task-augmented
   * request uses it to cancel the task the server made all the same. Where the transport
   * drops a cancelled request's answer (Streamable HTTP closes its stream), it never comes.
   */
  onLateResult?: (result: JsonObject) => void;
  /**
   * Names a server-to-client request inside a multi round-trip request (2026-07-28 MRTR):
   * the key of its entry in `inputRequests` and `inputResponses`.
   */
  inputKey?: string;
}

export interface ConnectionOptions {
  /**
   * Answers one request of the peer with its result: any JSON-shaped object (a typed result
   * such as CallToolResult needs no cast). Throw McpError for a protocol error.
   */
  onRequest(request: InboundRequest): object | Promise<object>;
  /** Every notification except progress and cancellation, which the connection handles. */
  onNotification?(notification: JsonRpcNotification, info: MessageInfo | undefined): void;
  /** Whether a batch (JSON array) is acceptable now; the negotiated revision decides. */
  batchesAllowed?(): boolean;
  /** Whether an error about an unreadable id says `id: null` (before 2025-11-25) or leaves it out. */
  unreadableIdNull?(): boolean;
  /** Called once when the transport closes. */
  onClose?(reason?: Error): void;
  /** A handler failed with something other than McpError (answered as -32603). */
  onError?(error: unknown): void;
  /** Default timeout for our requests in milliseconds (default 60 000; 0 disables). */
  timeoutMs?: number;
  /**
   * Our request ids become strings starting with this (default: plain numbers): the nodes
   * of a cluster tell from an answer's id which node sent the request.
   */
  requestIdPrefix?: string;
}

/** A request on its way: the id this connection gave it, and its eventual result. */
export interface SentRequest {
  readonly id: RequestId;
  readonly response: Promise<JsonObject>;
}

export const DEFAULT_TIMEOUT_MS = 60_000;
