import type { Connection } from "../../connection/connection.js";
import type { RequestOptions } from "../../connection/connection-options.js";
import type { JsonObject, JsonRpcNotification } from "../../jsonrpc/types.js";
import type { RevisionRules } from "../../protocol/revisions.js";
import type { ClientCapabilities, ServerCapabilities } from "../../protocol/types/capabilities.js";
import type { Implementation, LogLevel } from "../../protocol/types/common.js";
import type { CallToolResult, Tool } from "../../protocol/types/features.js";
import type { SubscriptionFilter } from "../../protocol/types/modern.js";
import type { Revision } from "../../protocol/versions.js";
import type { Answerer, ClientRequestContext } from "../answer.js";
import type { ClientOptions } from "../client-options.js";
import type { ListCache } from "../list-cache.js";
import type { ServerDescription } from "../server-description.js";
import type { ListenOptions, Subscription, SubscriptionListener } from "../subscription.js";

/** Options for one call: the connection's, plus extra `_meta` keys. */
export interface CallOptions extends RequestOptions {
  /**
   * Extra `_meta` keys for this request, e.g. W3C trace context (`traceparent`,
   * `tracestate`, `baggage`; basic/index §OpenTelemetry trace context).
   */
  meta?: Record<string, unknown>;
  /**
   * tools/call only: let the server run the call as a task (2026-07-28: declares the
   * Tasks extension on this request; 2025-11-25: sends `task`, with `ttl` when given).
   */
  asTask?: { ttlMs?: number };
  /**
   * The capabilities this one request declares instead of the client's (2026-07-28 only,
   * where each request carries its own): a proxy declares what its own caller declared.
   */
  capabilities?: ClientCapabilities;
}

/**
 * How the Client talks to a server of one era (basic/versioning §Terminology): the legacy
 * era through the `initialize` handshake and its session, the modern one through the
 * per-request envelope. The Client's typed calls are written once, on this interface.
 */
export interface ClientEra {
  readonly kind: "legacy" | "modern";
  readonly protocolVersion: Revision | undefined;
  readonly rules: RevisionRules | undefined;
  readonly serverInfo: Implementation | undefined;
  readonly serverCapabilities: ServerCapabilities;
  readonly instructions: string | undefined;
  /** What this client declares to a server of this era. */
  readonly capabilities: ClientCapabilities;
  /** Whether list results expire by their ttlMs (server/utilities/caching, modern only). */
  readonly listsExpire: boolean;
  describe(): ServerDescription;
  /** Sends a request; `R` is the result type the method's specification gives (see Connection.request). */
  request<R extends object = JsonObject>(method: string, params: object | undefined, options?: CallOptions): Promise<R>;
  callTool(name: string, args: Record<string, unknown>, options?: CallOptions): Promise<CallToolResult>;
  /**
   * The tools of a list result that may be offered (HTTP drops invalid x-mcp-header
   * tools); `whole` when they are every page of the list.
   */
  acceptTools(tools: Tool[], whole: boolean): Tool[];
  listen(filter: SubscriptionFilter, listener: SubscriptionListener, options?: ListenOptions): Promise<Subscription>;
  subscribe(uri: string, options?: CallOptions): Promise<void>;
  unsubscribe(uri: string, options?: CallOptions): Promise<void>;
  setLogLevel(level: LogLevel, options?: CallOptions): Promise<void>;
  ping(options?: CallOptions): Promise<void>;
  /** A notification arrived: hand it to the subscriptions it belongs to; false when it must not be delivered (a duplicate). */
  route(notification: JsonRpcNotification): boolean | undefined;
  /** The client's roots changed. */
  rootsChanged(): void;
  /** The connection closed. */
  closed(reason?: Error): void;
}

/** What an era needs of the Client it serves. */
export interface EraHost {
  readonly options: ClientOptions;
  readonly connection: Connection;
  /** Streamable HTTP: era errors come with a status; x-mcp-header tools apply. */
  readonly http: boolean;
  readonly clientInfo: Implementation;
  readonly tools: ListCache<Tool>;
  /** What the client declares, for the era named. */
  capabilities(modern: boolean): ClientCapabilities;
  /** The handlers and declarations that answer server requests. */
  answerer(): Answerer;
  /** Answers a request of the server (or an input request of a modern one), through the client's middleware. */
  onRequest(method: string, params: JsonObject, ctx: ClientRequestContext): Promise<JsonObject>;
  /** Whether someone listens for notifications/message (then a modern request asks for logs). */
  wantsLogs(): boolean;
  /** Forget every cached list (a new session may see different ones). */
  invalidateCaches(): void;
  /** A legacy session the server forgot was replaced by a new one (see ClientOptions.onSessionRenewed). */
  sessionRenewed(description: ServerDescription): void;
}
