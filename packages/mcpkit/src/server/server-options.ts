import type { JsonRpcNotification } from "../jsonrpc/types.js";
import type { ServerCapabilities } from "../protocol/types/capabilities.js";
import type { Implementation } from "../protocol/types/common.js";
import type { CacheHints } from "../protocol/types/modern.js";
import type { Revision } from "../protocol/versions.js";
import type { ToolCatalogOptions } from "./catalog/catalog-options.js";
import type { EventBus } from "./events.js";
import type { ServerMiddleware } from "./middleware/message-context.js";
import type { ServerSession } from "./server-session.js";
import type { TaskServerOptions } from "./tasks/settings.js";

/** server/utilities/caching (2026-07-28): how long a result stays fresh, and who may share it. */
export interface CacheHint {
  ttlMs: number;
  scope?: CacheHints["cacheScope"];
}

export interface CachingOptions {
  /** For every cacheable result not configured below (default: ttlMs 0, public). */
  default?: CacheHint;
  discover?: CacheHint;
  tools?: CacheHint;
  prompts?: CacheHint;
  resources?: CacheHint;
  resourceTemplates?: CacheHint;
  /** resources/read results; a resource's own `cache` setting comes first. */
  reads?: CacheHint;
  /** skills/list and skills/get results (the Skills extension). */
  skills?: CacheHint;
}

export interface ServerOptions extends Implementation {
  /** server/index: guidance for the model on how to use this server. */
  instructions?: string;
  /** Items per page on every list (default 1000). */
  pageSize?: number;
  /** Capabilities to declare beyond the ones derived from what is registered. */
  capabilities?: ServerCapabilities;
  /** Revisions to serve, oldest first (default: every one mcpkit speaks, 2024-11-05 … 2026-07-28). */
  revisions?: readonly Revision[];
  /** Timeout for requests the server sends (sampling, elicitation, roots), ms (default 60 000; 0 disables). */
  requestTimeoutMs?: number;
  /** Called when a client finishes the handshake (notifications/initialized), on every transport. */
  onSession?: (session: ServerSession) => void;
  /**
   * Called with every notification a client sends (roots/list_changed, cancelled,
   * progress…), whichever transport connected it.
   */
  onNotification?: (notification: JsonRpcNotification, session: ServerSession) => void;
  /** Where list changes and resource updates are published (default: in this process). */
  eventBus?: EventBus;
  /** Caching hints on 2026-07-28 results (server/utilities/caching); see CachingOptions. */
  caching?: CachingOptions;
  /**
   * The key that signs multi round-trip request state (2026-07-28 MRTR), at least 32
   * bytes. Give every node of a deployment the same key; by default each process makes one.
   */
  requestStateKey?: Uint8Array | string;
  /** How long a multi round-trip request state stays valid, ms (default 10 minutes). */
  requestStateTtlMs?: number;
  /**
   * What a caller whose token lacks a definition's `scopes` sees: "step-up" (listed; using
   * it is refused with 403 and a challenge for the scopes, the default) or "hide" (neither
   * listed nor usable).
   */
  scopePolicy?: "step-up" | "hide";
  /**
   * Large tool catalogs: past `threshold` enabled tools (default 100), tools/list shows
   * `search_tools` and `call_tool` instead of every tool; each stays callable by name.
   * `false` turns it off. See docs/server.md § Large tool catalogs.
   */
  toolCatalog?: ToolCatalogOptions | false;
  /** Tasks (tools declared with `task`): the store, TTL and polling interval. See docs/tasks.md. */
  tasks?: TaskServerOptions;
  /**
   * Middleware around every request and notification from a client, outermost first
   * (add more with `server.use`). See docs/middleware.md.
   */
  middleware?: readonly ServerMiddleware[];
  /**
   * Unexpected failures inside handlers (default: printed to stderr). Peers only see "Internal
   * error". A request the client cancelled is not one: how its handler ended is not reported.
   */
  onError?: (error: unknown) => void;
}
