import type { RequestOptions } from "../../connection/connection-options.js";
import { ErrorCode, McpError } from "../../jsonrpc/errors.js";
import type { JsonObject, RequestId } from "../../jsonrpc/types.js";
import type { RevisionRules } from "../../protocol/revisions.js";
import type { ClientCapabilities, ServerCapabilities } from "../../protocol/types/capabilities.js";
import type { Implementation, LogLevel } from "../../protocol/types/common.js";
import type { ServerSession } from "../server-session.js";

/**
 * The client as the method handlers see it, whichever era is being served. The legacy
 * adapter backs it with the handshake's session; the modern one (2026-07-28) with the
 * request's `_meta` envelope.
 */
export interface ClientPeer {
  readonly rules: RevisionRules;
  readonly sessionId: string | undefined;
  /** The connection's session (legacy era); a modern request has none. */
  readonly session: ServerSession | undefined;
  readonly clientInfo: Implementation | undefined;
  readonly clientCapabilities: ClientCapabilities;
  readonly serverCapabilities: ServerCapabilities;
  /** The minimum level set by logging/setLevel; undefined sends every level. */
  logLevel: LogLevel | undefined;
  /** Whether a log at `level` goes to the client (modern: only with a level in the request's `_meta`). */
  wantsLog(level: LogLevel): boolean;
  /**
   * Sends a request to the client and resolves with its result. Rejects with the client's
   * error answer, or with an InputResponseError when the request being served is itself
   * at fault (a malformed answer in a modern request's `inputResponses`). The caller has
   * run the server's middleware already (RequestContext).
   */
  ask(method: string, params: JsonObject, options?: RequestOptions): Promise<JsonObject>;
  /** `params`: any JSON-shaped object (a typed notification such as a task needs no cast). */
  notify(method: string, params: object, relatedRequestId?: RequestId): void;
  /**
   * 2026-07-28: resolves when this round of the multi round-trip request ends, its
   * unanswered requests to the client sent in the InputRequiredResult.
   */
  readonly roundEnded?: Promise<unknown>;
  /** resources/subscribe bookkeeping; `stop` ends the resource's own watch (ResourceWatch) when the subscription ends. */
  subscribe(uri: string, stop?: () => void | Promise<void>): void;
  /** Settles once the resource's own watch has ended. */
  unsubscribe(uri: string): void | Promise<void>;
}

/** A malformed answer in inputResponses: a protocol error of the request, not of the handler. */
export class InputResponseError extends McpError {
  constructor(message: string) {
    super(ErrorCode.InvalidParams, message);
    this.name = "InputResponseError";
  }
}
