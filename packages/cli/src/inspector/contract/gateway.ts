/**
 * What the inspector shows of a gateway (`mcpkit gateway`): the JSON of its `GET /healthz`,
 * read at the connected server's origin. Typed here, apart from the gateway's own types, for
 * it arrives over HTTP from whatever answers there and is checked before the page sees it.
 */

/** One upstream of the gateway, as /healthz tells it. */
export interface UpstreamHealthView {
  name: string;
  transport: string;
  /** idle, starting, ready, restarting or stopped. */
  state: string;
  restarts: number;
  perSession: boolean;
  /** When it entered its state (ISO 8601). */
  since: string;
  /** Why it last failed; told only to callers on the gateway's machine. */
  lastError?: string;
  lastErrorAt?: string;
}

export interface GatewayHealthView {
  /** Where it was read. */
  url: string;
  /** ok, or degraded while an upstream restarts. */
  status: string;
  upstreams: UpstreamHealthView[];
  /** When it was read (ms since the epoch). */
  at: number;
}

/** The gateway's health, or why there is none (a stdio server, a server that is no gateway). */
export type GatewayHealthAnswer = { health: GatewayHealthView } | { none: string };
