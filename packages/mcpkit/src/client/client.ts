import { ErrorCode, McpError } from "../jsonrpc/errors.js";
import type { JsonObject, JsonRpcNotification } from "../jsonrpc/types.js";
import { type RevisionRules, revisionRules } from "../protocol/revisions.js";
import type { ClientCapabilities, ServerCapabilities } from "../protocol/types/capabilities.js";
import type { Implementation, LogLevel } from "../protocol/types/common.js";
import type {
  CallToolResult,
  CompleteParams,
  CompleteResult,
  GetPromptResult,
  ListPromptsResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ListToolsResult,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  Root,
  Tool,
} from "../protocol/types/features.js";
import type { InitializeResult } from "../protocol/types/lifecycle.js";
import {
  isStatefulRevision,
  isSupportedRevision,
  LATEST_STATEFUL_REVISION,
  type ModernRevision,
  type Revision,
  STATEFUL_REVISIONS,
} from "../protocol/versions.js";
import { Connection } from "../session/connection.js";
import type { InboundRequest } from "../session/inbound.js";
import type { Transport } from "../transports/transport.js";
import { type Answerer, answerServerRequest, type ClientHandlers, type ClientRequestContext } from "./answer.js";
import { type Envelope, withEnvelope, withMeta } from "./envelope.js";
import { detectEra, rpcError } from "./era.js";
import { LegacySubscriptions } from "./legacy-listen.js";
import { listAll } from "./list-all.js";
import { ListCache, type ListFetch } from "./list-cache.js";
import { Subscriptions } from "./listen.js";
import { type CallOptions, ModernRequests } from "./modern-requests.js";
import type { DiscoverResult, SubscriptionFilter } from "./modern-types.js";
import { DEFAULT_MAX_INPUT_ROUNDS } from "./mrtr.js";
import { watchRequestIds } from "./request-ids.js";
import { ResourceSubscriptions } from "./resource-subscriptions.js";
import type { ListenOptions, Subscription, SubscriptionListener } from "./subscription.js";
import { ToolHeaders } from "./tool-headers.js";

export type { ClientRequestContext } from "./answer.js";
export type { CallOptions } from "./modern-requests.js";

export interface ClientOptions extends Implementation, ClientHandlers {
  /** Capabilities beyond those implied by the handlers (e.g. sampling.tools, elicitation.url). */
  capabilities?: ClientCapabilities;
  /** The roots to offer (roots/list); declares roots. Change them with setRoots. */
  roots?: Root[];
  /**
   * The revision to speak. Unset, over Streamable HTTP or stdio: 2026-07-28 when the
   * server speaks it, else the `initialize` handshake (basic/versioning §Backward
   * Compatibility); over any other transport (in-memory, custom): the handshake. A
   * handshake revision (e.g. "2025-11-25") skips the probe; a modern one never falls back.
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
  /** Failures the client cannot hand to a caller (a handler threw, a stray error), and warnings. */
  onError?: (error: unknown) => void;
}

/** What connect() learned: the InitializeResult of a handshake, or its equivalent from server/discover. */
export interface ServerDescription extends InitializeResult {
  era: "modern" | "legacy";
  /** The server/discover answer (modern era). */
  discover?: DiscoverResult;
}

/** What an HTTP transport reports when the server answered 404 to our session id. */
const isSessionExpired = (error: unknown) =>
  error instanceof McpError && (error.data as { reason?: unknown } | undefined)?.reason === "session-expired";

/** The binding a transport names (`kind`): "streamable-http", "stdio", or none (in-memory, custom). */
const bindingOf = (transport: Transport) => (transport as { kind?: unknown }).kind;

type NotificationListener = (params: JsonObject, notification: JsonRpcNotification) => void;

type Era =
  | { kind: "legacy"; init: InitializeResult }
  | { kind: "modern"; requests: ModernRequests; discover: DiscoverResult };

const LIST_CHANGED: Record<string, "tools" | "prompts" | "resources"> = {
  "notifications/tools/list_changed": "tools",
  "notifications/prompts/list_changed": "prompts",
  "notifications/resources/list_changed": "resources",
};

const DEFAULT_DISCOVER_TIMEOUT_MS = 3000;

/**
 * An MCP client over any transport. It speaks 2026-07-28 to servers that do (per-request
 * `_meta`, multi round-trip requests, subscriptions/listen, caching hints) and the
 * `initialize` handshake to older ones, behind one set of typed calls; it answers what
 * servers ask of clients with the same handlers in both eras, and keeps list caches fresh.
 */
export class Client {
  readonly options: ClientOptions;
  private connection: Connection | undefined;
  private era: Era | undefined;
  private http = false;
  private roots: Root[];
  /** server/utilities/logging (2026-07-28): sent in `_meta` of every request once set. */
  private logLevel: LogLevel | undefined;
  /** Counts sessions renewed after expiry, so a late failure from an old one does not renew again. */
  private sessionGeneration = 0;
  private renewal: Promise<void> | undefined;
  private readonly listeners = new Map<string, Set<NotificationListener>>();
  private readonly subscriptions = new Subscriptions();
  private readonly legacySubscriptions: LegacySubscriptions;
  /** resources/subscribe on a modern server: one listen stream for every subscribed URI. */
  private resourceSubscriptions: ResourceSubscriptions;
  private readonly toolHeaders: ToolHeaders;
  private readonly caches = {
    tools: new ListCache<Tool>(() => this.listEveryTool()),
    prompts: new ListCache<Prompt>(() => this.listAll("prompts/list", "prompts")),
    resources: new ListCache<Resource>(() => this.listAll("resources/list", "resources")),
    resourceTemplates: new ListCache<ResourceTemplate>(() =>
      this.listAll("resources/templates/list", "resourceTemplates"),
    ),
  };

  constructor(options: ClientOptions) {
    if (!options.name || !options.version) throw new TypeError("A client needs a name and a version");
    this.options = options;
    this.roots = options.roots ?? [];
    this.toolHeaders = new ToolHeaders((warning) => this.options.onError?.(warning));
    this.resourceSubscriptions = this.newResourceSubscriptions();
    this.legacySubscriptions = new LegacySubscriptions({
      capabilities: () => this.serverCapabilities,
      subscribe: (uri) => this.subscribe(uri),
      unsubscribe: (uri) => this.unsubscribe(uri),
    });
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
    if (this.options.roots) caps.roots = modern ? {} : { listChanged: true };
    for (const [key, value] of Object.entries(this.options.capabilities ?? {})) {
      const mine = caps[key];
      caps[key] = typeof mine === "object" && typeof value === "object" ? { ...mine, ...value } : value;
    }
    return caps;
  }

  /**
   * Starts the transport and learns the server's era: a `server/discover` probe first
   * (basic/versioning §Backward Compatibility), then, for a legacy server, the initialize
   * handshake (basic/lifecycle).
   */
  async connect(transport: Transport): Promise<ServerDescription> {
    if (this.connection && !this.connection.isClosed) throw new Error("This client is already connected");
    const binding = bindingOf(transport);
    this.http = binding === "streamable-http";
    const watched = watchRequestIds(transport);
    const connection = new Connection(watched, {
      onRequest: (inbound) => this.onRequest(inbound),
      onNotification: (n) => this.onNotification(n),
      batchesAllowed: () => this.rules?.batches ?? false,
      unreadableIdNull: () => this.rules?.unreadableIdNull ?? false,
      onError: this.options.onError,
      onClose: (reason) => this.legacySubscriptions.clear(reason),
      timeoutMs: this.options.timeoutMs,
    });
    this.connection = connection;
    this.era = undefined;
    this.logLevel = undefined;
    this.resourceSubscriptions = this.newResourceSubscriptions();
    this.toolHeaders.clear();
    for (const cache of Object.values(this.caches)) cache.invalidate();
    await connection.start();
    try {
      const decision = await detectEra({
        http: this.http,
        // Era detection is defined per binding (HTTP, stdio); any other transport (an
        // in-memory pair, a custom one) uses the handshake unless a modern revision is asked for.
        forced:
          this.options.protocolVersion ??
          (binding === "streamable-http" || binding === "stdio" ? undefined : LATEST_STATEFUL_REVISION),
        isClosed: () => connection.isClosed,
        probe: (version) =>
          connection.request("server/discover", withEnvelope(undefined, this.envelope(version)), {
            timeoutMs: this.http ? undefined : (this.options.discoverTimeoutMs ?? DEFAULT_DISCOVER_TIMEOUT_MS),
          }),
      });
      if (decision.era === "legacy") return { ...(await this.handshake(connection, decision.version)), era: "legacy" };
      const requests = new ModernRequests(
        {
          connection,
          transport: watched,
          envelope: (version) => this.envelope(version),
          answerer: () => this.answerer,
          maxRounds: this.options.maxInputRounds ?? DEFAULT_MAX_INPUT_ROUNDS,
          forced: this.options.protocolVersion,
        },
        decision.version,
      );
      requests.noteServerInfo(decision.discover as unknown as JsonObject);
      this.era = { kind: "modern", requests, discover: decision.discover };
      connection.transport.setProtocolVersion?.(decision.version);
      return this.describeModern(decision.version, decision.discover);
    } catch (error) {
      await connection.close();
      throw error;
    }
  }

  private describeModern(version: ModernRevision, discover: DiscoverResult): ServerDescription {
    const description: ServerDescription = {
      era: "modern",
      protocolVersion: version,
      capabilities: discover.capabilities,
      // serverInfo is a SHOULD (server/discover §DiscoverResult); the getter says undefined.
      serverInfo: this.serverInfo ?? { name: "", version: "" },
      discover,
    };
    if (discover.instructions !== undefined) description.instructions = discover.instructions;
    return description;
  }

  /** basic/lifecycle §Initialization: initialize, check the revision, then notifications/initialized. */
  private async handshake(connection: Connection, version: string): Promise<InitializeResult> {
    const result = (await connection.request("initialize", {
      protocolVersion: version,
      capabilities: this.capabilities,
      clientInfo: this.clientInfo,
    } as unknown as JsonObject)) as unknown as InitializeResult;
    // basic/lifecycle §Version Negotiation: a revision we do not speak ends the connection.
    if (!isStatefulRevision(result.protocolVersion)) {
      throw new McpError(
        ErrorCode.InvalidRequest,
        `The server answered with protocol revision ${JSON.stringify(result.protocolVersion)}, which this client does not support (${STATEFUL_REVISIONS.join(", ")})`,
      );
    }
    this.era = { kind: "legacy", init: result };
    connection.transport.setProtocolVersion?.(result.protocolVersion);
    connection.notify("notifications/initialized");
    return result;
  }

  private get clientInfo(): Implementation {
    const { name, version, title, description, icons, websiteUrl } = this.options;
    const info: Implementation = { name, version };
    if (title !== undefined) info.title = title;
    if (description !== undefined) info.description = description;
    if (icons !== undefined) info.icons = icons;
    if (websiteUrl !== undefined) info.websiteUrl = websiteUrl;
    return info;
  }

  /** basic/index §_meta: the per-request protocol fields of a 2026-07-28 request. */
  private envelope(version: string): Envelope {
    const envelope: Envelope = {
      protocolVersion: version,
      capabilities: this.capabilitiesFor(true),
      clientInfo: this.clientInfo,
    };
    // server/utilities/logging: without a level the server sends no logs. A client that
    // listens for them but set no level gets every level, as handshake-era servers send
    // logs until told otherwise: the same code sees the same logs in both eras.
    const level = this.logLevel ?? (this.listeners.get("notifications/message")?.size ? "debug" : undefined);
    if (level !== undefined) envelope.logLevel = level;
    return envelope;
  }

  /**
   * transports §Session Management item 4: the server forgot our session (the transport
   * saw HTTP 404 and dropped the session id), so start a new one on the same transport.
   * Requests that fail together share one renewal; one sent before a renewal that already
   * finished just retries.
   */
  private renewSession(connection: Connection, generation: number): Promise<void> {
    if (generation !== this.sessionGeneration) return Promise.resolve();
    const version = this.era?.kind === "legacy" ? this.era.init.protocolVersion : undefined;
    this.renewal ??= this.handshake(connection, isStatefulRevision(version) ? version : LATEST_STATEFUL_REVISION)
      .then(() => {
        this.sessionGeneration++;
        for (const cache of Object.values(this.caches)) cache.invalidate();
      })
      .finally(() => {
        this.renewal = undefined;
      });
    return this.renewal;
  }

  /** The server's name and version: from initialize, or from the `_meta` of server/discover and later results. */
  get serverInfo(): Implementation | undefined {
    if (this.era?.kind === "legacy") return this.era.init.serverInfo;
    return this.era?.requests.serverInfo;
  }
  get serverCapabilities(): ServerCapabilities | undefined {
    return this.era?.kind === "legacy" ? this.era.init.capabilities : this.era?.discover.capabilities;
  }
  get instructions(): string | undefined {
    return this.era?.kind === "legacy" ? this.era.init.instructions : this.era?.discover.instructions;
  }
  get protocolVersion(): Revision | undefined {
    if (this.era?.kind === "modern") return this.era.requests.version;
    const version = this.era?.init.protocolVersion;
    return isSupportedRevision(version) ? version : undefined;
  }
  /** The server/discover answer, on a 2026-07-28 server. */
  get discoverResult(): DiscoverResult | undefined {
    return this.era?.kind === "modern" ? this.era.discover : undefined;
  }
  /** "modern" (2026-07-28, stateless) or "legacy" (the initialize handshake), once connected. */
  get protocolEra(): "modern" | "legacy" | undefined {
    return this.era?.kind;
  }

  /** What the negotiated revision allows. */
  private get rules(): RevisionRules | undefined {
    const version = this.protocolVersion;
    return version ? revisionRules(version) : undefined;
  }

  /**
   * Sends any request; the typed methods below are built on it. On a 2026-07-28 server
   * the `_meta` envelope is added, input-required results are answered and retried until
   * complete, and a lost HTTP stream or a version the server no longer takes is retried once.
   */
  request<T = JsonObject>(method: string, params?: JsonObject, options?: CallOptions): Promise<T> {
    const connection = this.connection;
    if (!connection || !this.era) return Promise.reject(new Error("The client is not connected: call connect first"));
    if (this.era.kind === "modern") return this.era.requests.request(method, params, options) as Promise<T>;
    const generation = this.sessionGeneration;
    const sent = withMeta(params, options?.meta);
    return connection.request(method, sent, options).catch(async (error: unknown) => {
      if (!isSessionExpired(error) || connection.isClosed) throw error;
      await this.renewSession(connection, generation);
      return connection.request(method, sent, options);
    }) as Promise<T>;
  }

  private get answerer(): Answerer {
    return { handlers: this.options, capabilities: this.capabilities, roots: this.roots };
  }

  /** Listens for a notification method; returns a function that stops listening. */
  on(method: string, listener: NotificationListener): () => void {
    let set = this.listeners.get(method);
    if (!set) {
      set = new Set();
      this.listeners.set(method, set);
    }
    set.add(listener);
    return () => set.delete(listener);
  }

  /**
   * basic/patterns/subscriptions: opens a `subscriptions/listen` stream for the change
   * notifications in `filter` and resolves once the server acknowledged it; `listener`
   * gets each notification (they also reach `on()` listeners and refresh the list caches).
   * On a legacy server the same API is built on its list_changed notifications and
   * resources/subscribe.
   */
  listen(filter: SubscriptionFilter, listener: SubscriptionListener, options?: ListenOptions): Promise<Subscription> {
    if (!this.connection || !this.era)
      return Promise.reject(new Error("The client is not connected: call connect first"));
    if (this.era.kind === "legacy") return this.legacySubscriptions.listen(filter, listener, options);
    const requests = this.era.requests;
    const ackTimeout = options?.timeoutMs ?? this.options.timeoutMs ?? 60_000;
    return this.subscriptions.listen(
      filter,
      listener,
      // Long-lived: no request timeout; closing aborts it, which closes the stream.
      (params, signal) => requests.sendOnce("subscriptions/listen", params, { signal, timeoutMs: 0 }),
      ackTimeout,
      options,
    );
  }

  /** basic/utilities/ping; 2026-07-28 has no ping, so server/discover answers instead. */
  async ping(options?: CallOptions): Promise<void> {
    await this.request(this.era?.kind === "modern" ? "server/discover" : "ping", undefined, options);
  }

  /** One page of tools. On Streamable HTTP, tools with invalid x-mcp-header annotations are left out. */
  async listTools(cursor?: string, options?: CallOptions): Promise<ListToolsResult> {
    this.require("tools");
    const page = await this.request<ListToolsResult>(
      "tools/list",
      cursor === undefined ? undefined : { cursor },
      options,
    );
    return { ...page, tools: this.acceptTools(page.tools ?? []) };
  }

  /** Every tool, following cursors; cached until the server says the list changed or its ttlMs ran out. */
  tools(): Promise<Tool[]> {
    return this.caches.tools.get();
  }

  /**
   * Calls a tool. On Streamable HTTP with a 2026-07-28 server, the parameters its schema
   * marks with x-mcp-header also go in `Mcp-Param-*` headers; a HeaderMismatch (-32020)
   * re-reads the tool list and retries once (transports §Client Behavior).
   */
  async callTool(name: string, args: Record<string, unknown> = {}, options?: CallOptions): Promise<CallToolResult> {
    this.require("tools");
    const params = { name, arguments: args };
    if (!this.http || this.era?.kind !== "modern") return this.request("tools/call", params, options);
    // The schema says which arguments go in headers: list the tools once if this one is new.
    // A tool added since then comes back as HeaderMismatch, handled below.
    if (!this.toolHeaders.knows(name) && !this.toolHeaders.listedAll)
      await this.caches.tools.get().catch(() => undefined);
    try {
      return await this.request("tools/call", params, this.withParamHeaders(name, args, options));
    } catch (error) {
      if (rpcError(error)?.code !== ErrorCode.HeaderMismatch) throw error;
      this.caches.tools.invalidate();
      await this.caches.tools.get();
      return this.request("tools/call", params, this.withParamHeaders(name, args, options));
    }
  }

  private withParamHeaders(
    name: string,
    args: Record<string, unknown>,
    options?: CallOptions,
  ): CallOptions | undefined {
    const headers = this.toolHeaders.headersFor(name, args);
    if (!headers || Object.keys(headers).length === 0) return options;
    return { ...options, headers: { ...options?.headers, ...headers } };
  }

  /** server/tools §x-mcp-header: on HTTP, a tool with invalid annotations is not offered. */
  private acceptTools(tools: Tool[]): Tool[] {
    return this.http && this.era?.kind === "modern" ? this.toolHeaders.accept(tools) : tools;
  }

  listResources(cursor?: string, options?: CallOptions): Promise<ListResourcesResult> {
    this.require("resources");
    return this.request("resources/list", cursor === undefined ? undefined : { cursor }, options);
  }

  resources(): Promise<Resource[]> {
    return this.caches.resources.get();
  }

  listResourceTemplates(cursor?: string, options?: CallOptions): Promise<ListResourceTemplatesResult> {
    this.require("resources");
    return this.request("resources/templates/list", cursor === undefined ? undefined : { cursor }, options);
  }

  resourceTemplates(): Promise<ResourceTemplate[]> {
    return this.caches.resourceTemplates.get();
  }

  readResource(uri: string, options?: CallOptions): Promise<ReadResourceResult> {
    this.require("resources");
    return this.request("resources/read", { uri }, options);
  }

  /**
   * resources/subscribe. A 2026-07-28 server has no such method: the client keeps one
   * subscriptions/listen stream for every subscribed URI instead, and
   * notifications/resources/updated reaches `on()` listeners just the same.
   */
  async subscribe(uri: string, options?: CallOptions): Promise<void> {
    this.require("resources", "subscribe");
    if (this.era?.kind !== "modern") {
      await this.request("resources/subscribe", { uri }, options);
      return;
    }
    await this.resourceSubscriptions.add(uri);
  }

  async unsubscribe(uri: string, options?: CallOptions): Promise<void> {
    this.require("resources", "subscribe");
    if (this.era?.kind !== "modern") {
      await this.request("resources/unsubscribe", { uri }, options);
      return;
    }
    await this.resourceSubscriptions.remove(uri);
  }

  private newResourceSubscriptions(): ResourceSubscriptions {
    return new ResourceSubscriptions((filter) => this.listen(filter, () => undefined));
  }

  listPrompts(cursor?: string, options?: CallOptions): Promise<ListPromptsResult> {
    this.require("prompts");
    return this.request("prompts/list", cursor === undefined ? undefined : { cursor }, options);
  }

  prompts(): Promise<Prompt[]> {
    return this.caches.prompts.get();
  }

  getPrompt(name: string, args: Record<string, string> = {}, options?: CallOptions): Promise<GetPromptResult> {
    this.require("prompts");
    return this.request("prompts/get", { name, arguments: args }, options);
  }

  complete(params: CompleteParams, options?: CallOptions): Promise<CompleteResult> {
    // 2024-11-05 had completion without a capability flag, and `context` arrived in 2025-06-18.
    if (this.protocolVersion !== "2024-11-05") this.require("completions");
    const { context, ...rest } = params;
    const sent = context && this.rules?.completionContext ? params : rest;
    return this.request("completion/complete", sent as unknown as JsonObject, options);
  }

  /**
   * logging/setLevel. 2026-07-28 removed that method: the level is kept here and sent in
   * the `_meta` of every later request (server/utilities/logging).
   */
  async setLogLevel(level: LogLevel, options?: CallOptions): Promise<void> {
    this.require("logging");
    if (this.era?.kind === "modern") {
      this.logLevel = level;
      return;
    }
    await this.request("logging/setLevel", { level }, options);
  }

  /** Replaces the roots; a legacy server is told (notifications/roots/list_changed), a modern one asks when it needs them. */
  setRoots(roots: Root[]): void {
    this.roots = roots;
    if (this.era?.kind === "legacy" && this.capabilities.roots?.listChanged)
      this.connection?.notify("notifications/roots/list_changed");
  }

  async close(): Promise<void> {
    await this.connection?.close();
  }

  /** True between a finished handshake (or discovery) and the connection closing. */
  get isConnected(): boolean {
    return this.connection !== undefined && !this.connection.isClosed && this.era !== undefined;
  }

  private listAll<T>(method: string, key: string): Promise<ListFetch<T>> {
    return listAll<T>((m, params) => this.request(m, params), method, key, this.era?.kind === "modern");
  }

  /** Every tool; on HTTP, without those whose x-mcp-header annotations are invalid. */
  private async listEveryTool(): Promise<ListFetch<Tool>> {
    const all = await this.listAll<Tool>("tools/list", "tools");
    const tools = this.acceptTools(all.items);
    this.toolHeaders.listedAll = true;
    return { items: tools, freshUntil: all.freshUntil };
  }

  private require(capability: keyof ServerCapabilities, flag?: string): void {
    const caps = this.serverCapabilities;
    if (!caps) throw new Error("The client is not connected: call connect first");
    const value = caps[capability] as Record<string, unknown> | undefined;
    if (!value || (flag && !value[flag])) {
      throw new McpError(
        ErrorCode.MethodNotFound,
        `The server does not offer ${flag ? `${capability}.${flag}` : capability} (not in its declared capabilities)`,
      );
    }
  }

  private onRequest(inbound: InboundRequest): Promise<JsonObject> {
    const ctx: ClientRequestContext = {
      get signal() {
        return inbound.signal;
      },
      requestId: inbound.id,
    };
    return answerServerRequest(inbound.method, (inbound.params ?? {}) as JsonObject, ctx, this.answerer);
  }

  private onNotification(notification: JsonRpcNotification): void {
    this.guard(() => {
      if (this.era?.kind === "modern") this.subscriptions.route(notification);
      else this.legacySubscriptions.route(notification);
    });
    const kind = LIST_CHANGED[notification.method];
    if (kind) {
      this.caches[kind].invalidate();
      if (kind === "resources") this.caches.resourceTemplates.invalidate();
    }
    const set = this.listeners.get(notification.method);
    if (!set) return;
    const params = notification.params ?? {};
    for (const listener of set) this.guard(() => listener(params, notification));
  }

  private guard(run: () => void): void {
    try {
      run();
    } catch (error) {
      this.options.onError?.(error);
    }
  }
}

export function createClient(options: ClientOptions): Client {
  return new Client(options);
}
