import type { ClientCapabilities } from "../protocol/types/capabilities.js";
import type { Implementation } from "../protocol/types/common.js";
import type { Root } from "../protocol/types/features.js";
import type { Revision } from "../protocol/versions.js";
import type { ClientHandlers } from "./answer.js";
import type { ClientMiddleware } from "./client-middleware.js";
import type { ServerDescription } from "./server-description.js";

export interface ClientOptions extends Implementation, ClientHandlers {
  /** Capabilities beyond those implied by the handlers (e.g. sampling.tools, elicitation.url). */
  capabilities?: ClientCapabilities;
  /** The roots to offer (roots/list); declares roots. Change them with setRoots. */
  roots?: Root[];
  /**
   * The revision to speak. Unset, over Streamable HTTP or stdio: 2026-07-28 when the
   * server speaks it, else the `initialize` handshake (basic/versioning §Backward
   * Compatibility); over any other transport (in-memory, custom): the handshake. A
   * legacy revision (e.g. "2025-11-25") skips the probe; a modern one never falls back.
   */
  protocolVersion?: Revision;
  /** Default timeout for requests, ms (default 60 000; 0 disables). */
  timeoutMs?: number;
  /**
   * How long a server on stdio (or any non-HTTP transport) may take to answer the
   * `server/discover` probe before it is taken for a legacy server, ms (default 3000).
   */
  discoverTimeoutMs?: number;
  /** The most input-required rounds one call may take (basic/patterns/mrtr; default 16). */
  maxInputRounds?: number;
  /**
   * Check each tool result against the tool's outputSchema, as listed by tools/list
   * (default true): a result that breaks it is a ToolOutputError.
   */
  validateToolOutput?: boolean;
  /**
   * Middleware around every call to the server and every request or notification from it,
   * outermost first (add more with `client.use`). See docs/middleware.md.
   */
  middleware?: readonly ClientMiddleware[];
  /** The connection closed (the server exited, the transport failed, or close() was called). */
  onClose?: (reason?: Error) => void;
  /**
   * The server forgot the session (HTTP 404 for its id, transports §Session Management:
   * the server restarted, or ended an idle session) and the client started a new one by
   * itself: what the new handshake said, whose server info and capabilities may differ
   * from the old session's. The new session id is the transport's `sessionId`. Called once
   * per renewal, before the requests that saw the 404 are sent again.
   */
  onSessionRenewed?: (description: ServerDescription) => void;
  /** Failures the client cannot hand to a caller (a handler threw, a stray error), and warnings. */
  onError?: (error: unknown) => void;
}

/** The clientInfo this client sends: the Implementation fields of its options. */
export function implementationOf(options: ClientOptions): Implementation {
  const { name, version, title, description, icons, websiteUrl } = options;
  const info: Implementation = { name, version };
  if (title !== undefined) info.title = title;
  if (description !== undefined) info.description = description;
  if (icons !== undefined) info.icons = icons;
  if (websiteUrl !== undefined) info.websiteUrl = websiteUrl;
  return info;
}
