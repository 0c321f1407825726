import type { ClientOptions } from "../client/client-options.js";
import type { ServerOptions } from "../server/server-options.js";
import type { Transport } from "../transports/transport.js";

/**
 * How much of one upstream list the proxy reads (tools, prompts, resources, templates,
 * skills): a server that pages forever, or answers with more than this, is refused, and
 * what was mirrored before stays.
 */
export interface MirrorLimits {
  /** Pages of one list (default 100). */
  maxPages?: number;
  /** Items of one list (default 10 000). */
  maxItems?: number;
  /** Bytes of one list, its items as JSON (default 16 MiB). */
  maxBytes?: number;
  /** Time one reading of a list may take, ms (default 30 000). */
  timeoutMs?: number;
}

export const DEFAULT_MIRROR_LIMITS: Required<MirrorLimits> = {
  maxPages: 100,
  maxItems: 10_000,
  maxBytes: 16 * 1024 * 1024,
  timeoutMs: 30_000,
};

/** Opens a new connection to the upstream server (a new child process, a new HTTP session). */
export type UpstreamConnector = () => Transport;

export interface ProxyOptions extends Partial<ServerOptions> {
  /** How the proxy's client presents itself upstream (default name "mcpkit-proxy"), its protocolVersion, timeouts. */
  client?: Partial<Omit<ClientOptions, "sampling" | "elicitation" | "listRoots">>;
  /**
   * Whom an upstream connection serves when the upstream server keeps a session per
   * connection (the legacy revisions): "per-session" (the default when createProxy is given
   * a connector) opens one for each downstream session, so the server's requests outside
   * a call (roots/list after initialize), its logs and its subscriptions belong to that
   * session; "shared" serves every caller on one. See docs/composition.md.
   */
  upstreamSessions?: "per-session" | "shared";
  /** Bounds on reading the upstream's lists. */
  mirror?: MirrorLimits;
  /**
   * Upstream connections held at once when there is one per session (a process each, for
   * a command), the shared one that reads the lists included (default 16, at least 2). At
   * the cap, a new session's connection takes the place of the least recently used one
   * with no call in progress, whose session is closed (its client gets 404 and starts a new
   * one); when every one is busy, the new session is refused (`admitSession()`: 503 with
   * Retry-After over HTTP).
   */
  maxUpstreams?: number;
}
