import type { JsonObject, RequestId } from "../jsonrpc/types.js";
import type { RevisionRules } from "../protocol/revisions.js";
import type { ClientCapabilities, ServerCapabilities } from "../protocol/types/capabilities.js";
import type { Implementation, LogLevel } from "../protocol/types/common.js";
import type { RequestOptions } from "../session/connection.js";
import type { ServerSession } from "./stateful.js";

/**
 * The client as the method handlers see it, whichever era is being served. The stateful
 * adapter backs it with a session; the stateless one (2026-07-28) with the request's
 * `_meta` envelope.
 */
export interface ClientPeer {
  readonly rules: RevisionRules;
  readonly sessionId: string | undefined;
  /** The connection's session (stateful eras); a 2026-07-28 request has none. */
  readonly session: ServerSession | undefined;
  readonly clientInfo: Implementation | undefined;
  readonly clientCapabilities: ClientCapabilities;
  readonly serverCapabilities: ServerCapabilities;
  /** The minimum level set by logging/setLevel; undefined sends every level. */
  logLevel: LogLevel | undefined;
  /** Whether a log at `level` goes to the client (2026-07-28: only with a level in the request's `_meta`). */
  wantsLog(level: LogLevel): boolean;
  /** Sends a request to the client and resolves with its result. */
  request(method: string, params: JsonObject, options?: RequestOptions): Promise<JsonObject>;
  notify(method: string, params: JsonObject, relatedRequestId?: RequestId): void;
  /** resources/subscribe bookkeeping. */
  subscribe(uri: string): void;
  unsubscribe(uri: string): void;
}
