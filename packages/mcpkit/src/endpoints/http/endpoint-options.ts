import type { ResourceServer } from "../../auth/server/resource-server.js";
import type { SessionStore } from "../../server/session-store.js";
import type { ExchangeHandler, FetchInfo, ReportingHandler } from "../../transports/http/exchange.js";
import type { CorsOptions } from "../../transports/http/guards.js";
import type { EventStore } from "../../transports/streamable-http/server/event-store.js";

export interface StreamableHttpOptions {
  /** Sessions with Mcp-Session-Id (default true); false serves each POST on its own. */
  sessions?: boolean;
  /**
   * Where sessions are kept for other nodes (default: nowhere, this node only). With a
   * shared store (Redis), any node sharing it and the event store serves any session:
   * the endpoint becomes one node of a cluster.
   */
  sessionStore?: SessionStore;
  /**
   * With a sessionStore: how often this node tells the others it is alive, ms (default
   * 1000). A node silent for three times this is taken for dead: a client resuming a
   * request it ran is told to send the request again.
   */
  heartbeatMs?: number;
  /** Where SSE events are kept for resumption (default: in memory); false disables resumption. */
  eventStore?: EventStore | false;
  /** Host names the Host header may carry (default: localhost names); "any" disables the check. */
  allowedHosts?: readonly string[] | "any";
  /** Origins that may call (default: the allowed hosts); "any" disables the check. */
  allowedOrigins?: readonly string[] | "any";
  /** CORS for browser clients (default: off). */
  cors?: CorsOptions;
  /** Largest accepted POST body, bytes (default 4 MiB): larger ones get 413. */
  maxBodyBytes?: number;
  /**
   * Sessions held at once (default 10 000). When it is reached, the oldest sessions that
   * were opened and never used (no request after initialize, nothing connected) are ended
   * to make room; if there are none, initialize gets 503 with Retry-After.
   */
  maxSessions?: number;
  /**
   * Sessions one client may hold (default a tenth of maxSessions): a client is its principal
   * when `auth` is set, else its IP address (an IPv6 one by its /64; known on node:http, and
   * on Web runtimes without it only the total applies). Reaching it ends that client's own
   * unused sessions first.
   */
  maxSessionsPerClient?: number;
  /**
   * Asked before `initialize` opens a session: a refusal is answered 503 with its message
   * and Retry-After (a proxy whose upstream processes, one per session, are all busy:
   * `McpProxy.admitSession`).
   */
  admitSession?: () => { message: string; retryAfterSeconds: number } | undefined;
  /** A session with no request, stream or activity for this long is closed, ms (default 30 min). */
  idleTimeoutMs?: number;
  /** The SSE `retry` advice, ms (default 1000). */
  retryMs?: number;
  /** Comment lines on idle SSE streams, ms (default 25 000; 0 disables). */
  keepAliveMs?: number;
  /** How long close() waits for requests in progress, ms (default 5000). */
  drainTimeoutMs?: number;
  /**
   * Authorization (basic/authorization): every request needs a bearer token the resource
   * server accepts; its Protected Resource Metadata is served at its well-known path, and
   * each session is bound to the principal that opened it.
   */
  auth?: ResourceServer;
}

export interface StreamableHttpHandler extends ExchangeHandler, ReportingHandler {
  /**
   * The Web-standard handler: works on Node (through the adapter), Bun, Deno and Workers.
   * `info.clientAddress` counts sessions per address where no principal names the client.
   */
  fetch(request: Request, info?: FetchInfo): Promise<Response>;
  /** Stops accepting sessions, lets requests in progress finish, then closes every session. */
  close(): Promise<void>;
  readonly sessionCount: number;
}
