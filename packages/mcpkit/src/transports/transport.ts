import type { JsonRpcErrorObject, JsonRpcMessage, RequestId } from "../jsonrpc/types.js";

/** The largest message a transport accepts unless told otherwise: 16 MiB. */
export const DEFAULT_MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

/**
 * The protocol binding a transport implements (basic/transports). The client reads it to
 * pick how to learn a server's era: by HTTP status and body on Streamable HTTP, by a
 * `server/discover` probe with a timeout on stdio; any other binding (in-memory, custom)
 * uses the handshake unless a modern revision is asked for.
 */
export type TransportBinding = "stdio" | "streamable-http" | "sse" | "memory";

/** Read access to request headers; names are lower-case. A Web `Headers` is one. */
export interface HeaderReader {
  get(name: string): string | null;
}

/**
 * A transport moves JSON-RPC messages and knows nothing of MCP methods: it frames,
 * limits sizes, decodes JSON once and hands values up.
 */
export interface Transport {
  /** The binding it implements; undefined for custom transports. */
  readonly binding?: TransportBinding;
  /** Begins delivering messages to `sink`. Called once, by the connection that owns it. */
  start(sink: TransportSink): void | Promise<void>;
  /**
   * Sends one message or a batch. `relatedRequestId` names the incoming request a
   * response or notification belongs to, so HTTP can write it to that request's stream.
   */
  send(message: JsonRpcMessage | JsonRpcMessage[], options?: SendOptions): void;
  /**
   * Told that a request it delivered will get no response: the peer cancelled it
   * (basic/utilities/cancellation). A transport that holds a stream open for the answer
   * ends it, so that nothing waits for a response that will never come.
   */
  unanswered?(requestId: RequestId): void;
  /** Closes the transport; the sink's `close` is called once it is closed. */
  close(): Promise<void>;
  /** Set by transports that carry a session identifier (Streamable HTTP). */
  readonly sessionId?: string;
  /**
   * Told the negotiated revision once the handshake is done, for transports that must
   * send it with every message (the Streamable HTTP client's MCP-Protocol-Version header).
   */
  setProtocolVersion?(version: string): void;
}

export interface SendOptions {
  relatedRequestId?: RequestId;
  /** Extra headers for this message, for HTTP client transports (2026-07-28 `Mcp-Param-*`). */
  headers?: Record<string, string>;
  /**
   * The same message that other nodes of a cluster send too (one server event, told by
   * every node holding the session): a shared event store keeps it once.
   */
  dedupeKey?: string;
}

/** Facts about an incoming message that only the transport knows. */
export interface MessageInfo {
  /** Request headers, for HTTP transports (lower-case names). */
  headers?: HeaderReader;
  /** The authenticated principal, when the transport verified one. */
  auth?: unknown;
  /** The client's network address, for transports that have one (HTTP). */
  remoteAddress?: string;
  /**
   * Ends the HTTP response stream carrying this request's answer without ending the
   * request: the client reconnects after `retryMs` and resumes (transports §SSE polling).
   * Only Streamable HTTP with an event store offers it.
   */
  closeStream?(retryMs?: number): void;
}

export interface TransportSink {
  /** A decoded JSON value: one message, or an array for a batch. Not yet checked. */
  message(value: unknown, info?: MessageInfo): void;
  /** A frame that could not be decoded (bad JSON, too large): answered with id null. */
  invalid(error: JsonRpcErrorObject): void;
  /** The transport closed; `reason` is set when it closed because of a failure. */
  close(reason?: Error): void;
}
