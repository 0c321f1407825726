import { ErrorCode, McpError } from "../jsonrpc/errors.js";
import type { JsonObject, JsonRpcNotification } from "../jsonrpc/types.js";
import { mergeCapabilities } from "../protocol/merge-capabilities.js";
import type { ClientCapabilities, ServerCapabilities } from "../protocol/types/capabilities.js";
import type { Implementation } from "../protocol/types/common.js";
import type { Root } from "../protocol/types/features.js";
import type { DiscoverResult, SubscriptionFilter } from "../protocol/types/modern.js";
import type { Revision } from "../protocol/versions.js";
import type { Transport } from "../transports/transport.js";
import { type Answerer, answerServerRequest, type ClientRequestContext } from "./answer.js";
import {
  ClientChain,
  type ClientFacts,
  type ClientMiddleware,
  type ClientSession,
  openSession,
} from "./client-middleware.js";
import { type ClientOptions, implementationOf } from "./client-options.js";
import { connectEra } from "./connect-era.js";
import type { CallOptions, ClientEra, EraHost } from "./eras/client-era.js";
import { type NotificationListener, NotificationListeners } from "./listeners.js";
import { ClientLists } from "./lists.js";
import { OutputSchemas } from "./output-schemas.js";
import type { ServerDescription } from "./server-description.js";
import type { ListenOptions, Subscription, SubscriptionListener } from "./subscription.js";

const notConnected = () => new Error("The client is not connected: call connect first");

/**
 * What every Client stands on: the connection and its era, the answers to what servers ask,
 * middleware, notifications and list caches. The typed calls are in client.ts.
 */
export class ClientBase {
  readonly options: ClientOptions;
  protected era: ClientEra | undefined;
  private host: EraHost | undefined;
  protected roots: Root[];
  /** Undefined until middleware is installed, so the plain path checks one field and allocates nothing. */
  protected chain: ClientChain | undefined;
  /** The connection as middleware sees it. */
  private session: (ClientSession & { end(reason?: Error): void }) | undefined;
  private readonly listeners: NotificationListeners;
  /** The outputSchemas of listed tools, to check results against (undefined when turned off). */
  protected readonly outputs: OutputSchemas | undefined;
  protected readonly lists = new ClientLists(
    (method, params) => this.request(method, params),
    () => this.era,
    (tools) => this.outputs?.note(tools),
  );

  constructor(options: ClientOptions) {
    if (!options.name || !options.version) throw new TypeError("A client needs a name and a version");
    this.options = options;
    this.roots = options.roots ?? [];
    if (options.middleware && options.middleware.length > 0) this.use(...options.middleware);
    this.listeners = new NotificationListeners(options.onError);
    this.outputs = options.validateToolOutput === false ? undefined : new OutputSchemas(options.onError);
  }

  /** The capabilities this client declares (in initialize, or in every request's `_meta`). */
  get capabilities(): ClientCapabilities {
    return this.capabilitiesFor(this.era?.kind === "modern");
  }

  private capabilitiesFor(modern: boolean): ClientCapabilities {
    const caps: ClientCapabilities = {};
    if (this.options.sampling) caps.sampling = {};
    if (this.options.elicitation) caps.elicitation = { form: {} };
    // 2026-07-28 has no notifications/roots/list_changed, so no listChanged to declare.
    if (this.options.roots || this.options.listRoots) caps.roots = modern ? {} : { listChanged: true };
    return mergeCapabilities(caps, this.options.capabilities);
  }

  /**
   * Starts the transport and learns the server's era: a `server/discover` probe first
   * (basic/versioning §Backward Compatibility), then, for a legacy server, the initialize
   * handshake (basic/lifecycle).
   */
  async connect(transport: Transport): Promise<ServerDescription> {
    if (this.host && !this.host.connection.isClosed) throw new Error("This client is already connected");
    this.era = undefined;
    this.lists.invalidateAll();
    this.outputs?.forget();
    // One record per connection (not per call), so middleware added later sees it too.
    const session = openSession();
    const connected = await connectEra(transport, {
      options: this.options,
      clientInfo: implementationOf(this.options),
      tools: this.lists.tools,
      capabilities: (modern) => this.capabilitiesFor(modern),
      answerer: () => this.answerer,
      wantsLogs: () => this.listeners.has("notifications/message"),
      invalidateCaches: () => this.lists.invalidateAll(),
      sessionRenewed: (description) => {
        // The renewal goes on whatever the listener does: its failure is only reported.
        try {
          this.options.onSessionRenewed?.(description);
        } catch (error) {
          this.options.onError?.(error);
        }
      },
      onRequest: (method, params, ctx) => this.answer(method, params, ctx),
      onNotification: (notification) => this.onNotification(notification),
      rules: () => this.era?.rules,
      onClose: (reason) => {
        this.era?.closed(reason);
        session.end(reason);
        this.options.onClose?.(reason);
      },
    });
    this.session = session;
    this.host = connected.host;
    this.era = connected.era;
    return connected.era.describe();
  }

  /** The server's name and version: from initialize, or from the `_meta` of server/discover and later results. */
  get serverInfo(): Implementation | undefined {
    return this.era?.serverInfo;
  }
  get serverCapabilities(): ServerCapabilities | undefined {
    return this.era?.serverCapabilities;
  }
  get instructions(): string | undefined {
    return this.era?.instructions;
  }
  get protocolVersion(): Revision | undefined {
    return this.era?.protocolVersion;
  }
  /** The server/discover answer, on a 2026-07-28 server. */
  get discoverResult(): DiscoverResult | undefined {
    return this.era?.kind === "modern" ? this.era.describe().discover : undefined;
  }
  /** "modern" (2026-07-28) or "legacy" (the initialize handshake), once connected. */
  get protocolEra(): "modern" | "legacy" | undefined {
    return this.era?.kind;
  }

  /**
   * Sends any request; the typed methods below are built on it. On a 2026-07-28 server
   * the `_meta` envelope is added, input-required results are answered and retried until
   * complete, and a lost HTTP stream or a version the server no longer takes is retried once.
   */
  request<T extends object = JsonObject>(method: string, params?: object, options?: CallOptions): Promise<T> {
    const era = this.era;
    if (!era) return Promise.reject(notConnected());
    if (this.chain === undefined) return era.request<T>(method, params, options);
    return this.chain.outbound<T>(method, params, options, (ctx) => era.request(ctx.method, ctx.params, ctx.options));
  }

  /**
   * Adds middleware around every call to the server and every request or notification
   * from it, after those already installed (the first added is the outermost). See
   * docs/middleware.md.
   */
  use(...middleware: ClientMiddleware[]): this {
    if (middleware.length === 0) return this;
    this.chain ??= new ClientChain([], () => this.facts());
    this.chain.add(middleware);
    return this;
  }

  private facts(): ClientFacts {
    const era = this.era;
    return {
      era: era?.kind,
      revision: era?.protocolVersion,
      sessionId: this.host?.connection.transport.sessionId,
      server: era?.serverInfo,
      transport: this.host?.connection.transport.binding,
      session: this.session,
    };
  }

  /** A request of the server (or an input request of a modern one), through the middleware. */
  private answer(method: string, params: JsonObject, rctx: ClientRequestContext): Promise<JsonObject> {
    if (this.chain === undefined) return answerServerRequest(method, params, rctx, this.answerer);
    return this.chain.inbound(method, params, rctx, (c) =>
      answerServerRequest(c.method, c.params ?? {}, rctx, this.answerer),
    );
  }

  protected get answerer(): Answerer {
    return { handlers: this.options, capabilities: this.capabilities, roots: this.roots };
  }

  /** Listens for a notification method; returns a function that stops listening. */
  on(method: string, listener: NotificationListener): () => void {
    return this.listeners.add(method, listener);
  }

  /**
   * basic/patterns/subscriptions: opens a `subscriptions/listen` stream for the change
   * notifications in `filter` and resolves once the server acknowledged it; `listener`
   * gets each notification (they also reach `on()` listeners and refresh the list caches).
   * On a legacy server the same API is built on its list_changed notifications and
   * resources/subscribe.
   */
  listen(filter: SubscriptionFilter, listener: SubscriptionListener, options?: ListenOptions): Promise<Subscription> {
    return this.era ? this.era.listen(filter, listener, options) : Promise.reject(notConnected());
  }

  /** basic/utilities/ping; 2026-07-28 has no ping, so server/discover answers instead. */
  async ping(options?: CallOptions): Promise<void> {
    await this.connected().ping(options);
  }

  /** Replaces the roots; a legacy server is told (notifications/roots/list_changed), a modern one asks when it needs them. */
  setRoots(roots: Root[]): void {
    this.roots = roots;
    this.era?.rootsChanged();
  }

  async close(): Promise<void> {
    await this.host?.connection.close();
  }

  /** True between a finished handshake (or discovery) and the connection closing. */
  get isConnected(): boolean {
    return this.host !== undefined && !this.host.connection.isClosed && this.era !== undefined;
  }

  protected connected(): ClientEra {
    if (!this.era) throw notConnected();
    return this.era;
  }

  /** The era, once the server declared `capability` (and `flag` in it); -32601 otherwise. */
  protected require(capability: keyof ServerCapabilities, flag?: string): ClientEra {
    const era = this.connected();
    const value = era.serverCapabilities[capability] as Record<string, unknown> | undefined;
    if (!value || (flag && !value[flag])) {
      throw new McpError(
        ErrorCode.MethodNotFound,
        `The server does not offer ${flag ? `${capability}.${flag}` : capability} (not in its declared capabilities)`,
      );
    }
    return era;
  }

  private onNotification(notification: JsonRpcNotification): void {
    if (this.chain === undefined) this.deliver(notification);
    else this.chain.notification(notification, (n) => this.deliver(n)).catch((error) => this.options.onError?.(error));
  }

  private deliver(notification: JsonRpcNotification): void {
    if (notification.method === "notifications/tools/list_changed") this.outputs?.forget();
    let routed: boolean | undefined;
    this.listeners.guard(() => {
      routed = this.era?.route(notification);
    });
    if (routed === false) return;
    this.lists.noteChange(notification);
    this.listeners.deliver(notification);
  }
}
