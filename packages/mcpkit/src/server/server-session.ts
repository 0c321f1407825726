import type { RequestOptions } from "../connection/connection-options.js";
import type { JsonObject, JsonRpcNotification } from "../jsonrpc/types.js";
import type { ClientCapabilities } from "../protocol/types/capabilities.js";
import type { Implementation, LogLevel } from "../protocol/types/common.js";
import type { Revision } from "../protocol/versions.js";
import type { SessionRecord } from "./session-store.js";

/**
 * One client connected with the `initialize` handshake (legacy revisions, up to
 * 2025-11-25): the same object for every request of that connection. Modern requests
 * (2026-07-28) stand alone and have no session.
 */
export interface ServerSession {
  readonly sessionId: string | undefined;
  /** The negotiated revision, once initialized. */
  readonly revision: Revision | undefined;
  readonly clientInfo: Implementation | undefined;
  readonly clientCapabilities: ClientCapabilities;
  /** Resolves when the session has closed. */
  readonly closed: Promise<void>;
  /** basic/utilities/ping, server to client. */
  ping(options?: RequestOptions): Promise<void>;
  /** Sends notifications/message outside any request (filtered by the client's level). */
  log(level: LogLevel, data: unknown, logger?: string): void;
  /**
   * Sends a request to the client, through the server's middleware; it must have declared
   * the capability the method needs. `R` is the result type the method's specification
   * gives (`ElicitResult` for elicitation/create, say): the client's JSON is not checked.
   */
  request<R extends object = JsonObject>(method: string, params: object, options?: RequestOptions): Promise<R>;
  /** Sends a notification to the client outside any request (a resource update, say); the method must exist in the revision. */
  notify(method: string, params: object): void;
  close(): Promise<void>;
  /**
   * Hides a tool, prompt (by name), resource (by URI) or template (by URI template) from
   * this session only: not listed, unknown when called. The client is told its list changed.
   */
  disable(name: string): void;
  /** Shows again what disable() hid from this session. */
  enable(name: string): void;
  isDisabled(name: string): boolean;
  /** Whether this session has disabled anything. */
  readonly hasDisabled: boolean;
}

/** Options of one connection served by `McpServer.connect`. */
export interface SessionOptions {
  /** Timeout for requests this session sends to the client, ms (default: the server's). */
  requestTimeoutMs?: number;
  /** Notifications from the client other than the lifecycle's (e.g. notifications/roots/list_changed). */
  onNotification?: (notification: JsonRpcNotification, session: ServerSession) => void;
  /**
   * "legacy": every request on this connection belongs to the handshake's session (the
   * HTTP endpoint, which classified the request already). Default: each request is
   * classified on its own, so a stdio connection serves modern requests and, after
   * `initialize`, legacy ones (basic/versioning §Backward Compatibility).
   */
  era?: "legacy";
  /** Ids of requests to the client start with this (a cluster node's name). */
  requestIdPrefix?: string;
  /** A legacy session opened elsewhere (another node), served from its stored record. */
  restore?: SessionRecord;
}
