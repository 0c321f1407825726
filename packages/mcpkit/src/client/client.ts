import { ErrorCode, McpError } from "../jsonrpc/errors.js";
import type { JsonObject, JsonRpcNotification, RequestId } from "../jsonrpc/types.js";
import { type RevisionRules, revisionRules } from "../protocol/revisions.js";
import type { ClientCapabilities, ServerCapabilities } from "../protocol/types/capabilities.js";
import type { Implementation, LogLevel } from "../protocol/types/common.js";
import type {
  CallToolResult,
  CompleteParams,
  CompleteResult,
  CreateMessageParams,
  CreateMessageResult,
  ElicitParams,
  ElicitResult,
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
  type Revision,
  STATEFUL_REVISIONS,
} from "../protocol/versions.js";
import { Connection, type RequestOptions } from "../session/connection.js";
import type { InboundRequest } from "../session/inbound.js";
import type { Transport } from "../transports/transport.js";
import { applyElicitationDefaults } from "./elicitation-defaults.js";
import { ListCache } from "./list-cache.js";

/** What a handler for a server-to-client request sees. */
export interface ClientRequestContext {
  readonly signal: AbortSignal;
  readonly requestId: RequestId;
}

export interface ClientOptions extends Implementation {
  /** Capabilities beyond those implied by the handlers below (e.g. sampling.tools, elicitation.url). */
  capabilities?: ClientCapabilities;
  /** Answers sampling/createMessage; declares the sampling capability. */
  sampling?: (
    params: CreateMessageParams,
    ctx: ClientRequestContext,
  ) => CreateMessageResult | Promise<CreateMessageResult>;
  /**
   * Answers elicitation/create; declares the elicitation capability (form mode; add
   * `capabilities.elicitation.url` for URL mode). Defaults in the schema fill omitted fields.
   */
  elicitation?: (params: ElicitParams, ctx: ClientRequestContext) => ElicitResult | Promise<ElicitResult>;
  /** The roots to offer (client/roots); declares roots with listChanged. Change them with setRoots. */
  roots?: Root[];
  /** The revision to ask for (default: the latest). */
  protocolVersion?: Revision;
  /** Default timeout for requests, ms (default 60 000; 0 disables). */
  timeoutMs?: number;
  /** Failures the client cannot hand to a caller (a handler threw, a stray error response). */
  onError?: (error: unknown) => void;
}

/** What an HTTP transport reports when the server answered 404 to our session id. */
const isSessionExpired = (error: unknown) =>
  error instanceof McpError && (error.data as { reason?: unknown } | undefined)?.reason === "session-expired";

type NotificationListener = (params: JsonObject, notification: JsonRpcNotification) => void;

const LIST_CHANGED: Record<string, "tools" | "prompts" | "resources"> = {
  "notifications/tools/list_changed": "tools",
  "notifications/prompts/list_changed": "prompts",
  "notifications/resources/list_changed": "resources",
};

/**
 * An MCP client over any transport: the handshake, typed calls for every request,
 * handlers for what servers ask of clients, and list caches kept fresh by list_changed.
 */
export class Client {
  readonly options: ClientOptions;
  private connection: Connection | undefined;
  private init: InitializeResult | undefined;
  private roots: Root[];
  /** Counts sessions renewed after expiry, so a late failure from an old one does not renew again. */
  private sessionGeneration = 0;
  private renewal: Promise<void> | undefined;
  private readonly listeners = new Map<string, Set<NotificationListener>>();
  private readonly caches = {
    tools: new ListCache<Tool>(() => this.listAll("tools/list", "tools")),
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
  }

  /** The capabilities sent in initialize. */
  get capabilities(): ClientCapabilities {
    const caps: ClientCapabilities = {};
    if (this.options.sampling) caps.sampling = {};
    if (this.options.elicitation) caps.elicitation = { form: {} };
    if (this.options.roots) caps.roots = { listChanged: true };
    for (const [key, value] of Object.entries(this.options.capabilities ?? {})) {
      const mine = caps[key];
      caps[key] = typeof mine === "object" && typeof value === "object" ? { ...mine, ...value } : value;
    }
    return caps;
  }

  /** Starts the transport and performs the initialize handshake (basic/lifecycle). */
  async connect(transport: Transport): Promise<InitializeResult> {
    if (this.connection && !this.connection.isClosed) throw new Error("This client is already connected");
    const connection = new Connection(transport, {
      onRequest: (inbound) => this.onRequest(inbound),
      onNotification: (n) => this.onNotification(n),
      batchesAllowed: () => this.rules?.batches ?? false,
      unreadableIdNull: () => this.rules?.unreadableIdNull ?? false,
      onError: this.options.onError,
      timeoutMs: this.options.timeoutMs,
    });
    this.connection = connection;
    this.init = undefined;
    for (const cache of Object.values(this.caches)) cache.invalidate();
    await connection.start();
    try {
      return await this.handshake(connection);
    } catch (error) {
      await connection.close();
      throw error;
    }
  }

  /** basic/lifecycle §Initialization: initialize, check the revision, then notifications/initialized. */
  private async handshake(connection: Connection): Promise<InitializeResult> {
    const { name, version, title, description, icons, websiteUrl } = this.options;
    const clientInfo: Implementation = { name, version };
    if (title !== undefined) clientInfo.title = title;
    if (description !== undefined) clientInfo.description = description;
    if (icons !== undefined) clientInfo.icons = icons;
    if (websiteUrl !== undefined) clientInfo.websiteUrl = websiteUrl;
    const result = (await connection.request("initialize", {
      protocolVersion: this.options.protocolVersion ?? LATEST_STATEFUL_REVISION,
      capabilities: this.capabilities,
      clientInfo,
    } as unknown as JsonObject)) as unknown as InitializeResult;
    // basic/lifecycle §Version Negotiation: a revision we do not speak ends the connection.
    if (!isStatefulRevision(result.protocolVersion)) {
      throw new McpError(
        ErrorCode.InvalidRequest,
        `The server answered with protocol revision ${JSON.stringify(result.protocolVersion)}, which this client does not support (${STATEFUL_REVISIONS.join(", ")})`,
      );
    }
    this.init = result;
    connection.transport.setProtocolVersion?.(result.protocolVersion);
    connection.notify("notifications/initialized");
    return result;
  }

  /**
   * transports §Session Management item 4: the server forgot our session (the transport
   * saw HTTP 404 and dropped the session id), so start a new one on the same transport.
   * Requests that fail together share one renewal; one sent before a renewal that already
   * finished just retries.
   */
  private renewSession(connection: Connection, generation: number): Promise<void> {
    if (generation !== this.sessionGeneration) return Promise.resolve();
    this.renewal ??= this.handshake(connection)
      .then(() => {
        this.sessionGeneration++;
        for (const cache of Object.values(this.caches)) cache.invalidate();
      })
      .finally(() => {
        this.renewal = undefined;
      });
    return this.renewal;
  }

  get serverInfo(): Implementation | undefined {
    return this.init?.serverInfo;
  }
  get serverCapabilities(): ServerCapabilities | undefined {
    return this.init?.capabilities;
  }
  get instructions(): string | undefined {
    return this.init?.instructions;
  }
  get protocolVersion(): Revision | undefined {
    return this.init?.protocolVersion as Revision | undefined;
  }

  /** What the negotiated revision allows. */
  private get rules(): RevisionRules | undefined {
    const version = this.init?.protocolVersion;
    return isSupportedRevision(version) ? revisionRules(version) : undefined;
  }

  /** Sends any request; the typed methods below are built on it. */
  request<T = JsonObject>(method: string, params?: JsonObject, options?: RequestOptions): Promise<T> {
    const connection = this.connection;
    if (!connection || !this.init) return Promise.reject(new Error("The client is not connected: call connect first"));
    const generation = this.sessionGeneration;
    return connection.request(method, params, options).catch(async (error: unknown) => {
      if (!isSessionExpired(error) || connection.isClosed) throw error;
      await this.renewSession(connection, generation);
      return connection.request(method, params, options);
    }) as Promise<T>;
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

  async ping(options?: RequestOptions): Promise<void> {
    await this.request("ping", undefined, options);
  }

  listTools(cursor?: string, options?: RequestOptions): Promise<ListToolsResult> {
    this.require("tools");
    return this.request("tools/list", cursor === undefined ? undefined : { cursor }, options);
  }

  /** Every tool, following cursors; cached until the server says the list changed. */
  tools(): Promise<Tool[]> {
    return this.caches.tools.get();
  }

  callTool(name: string, args: Record<string, unknown> = {}, options?: RequestOptions): Promise<CallToolResult> {
    this.require("tools");
    return this.request("tools/call", { name, arguments: args }, options);
  }

  listResources(cursor?: string, options?: RequestOptions): Promise<ListResourcesResult> {
    this.require("resources");
    return this.request("resources/list", cursor === undefined ? undefined : { cursor }, options);
  }

  resources(): Promise<Resource[]> {
    return this.caches.resources.get();
  }

  listResourceTemplates(cursor?: string, options?: RequestOptions): Promise<ListResourceTemplatesResult> {
    this.require("resources");
    return this.request("resources/templates/list", cursor === undefined ? undefined : { cursor }, options);
  }

  resourceTemplates(): Promise<ResourceTemplate[]> {
    return this.caches.resourceTemplates.get();
  }

  readResource(uri: string, options?: RequestOptions): Promise<ReadResourceResult> {
    this.require("resources");
    return this.request("resources/read", { uri }, options);
  }

  async subscribe(uri: string, options?: RequestOptions): Promise<void> {
    this.require("resources", "subscribe");
    await this.request("resources/subscribe", { uri }, options);
  }

  async unsubscribe(uri: string, options?: RequestOptions): Promise<void> {
    this.require("resources", "subscribe");
    await this.request("resources/unsubscribe", { uri }, options);
  }

  listPrompts(cursor?: string, options?: RequestOptions): Promise<ListPromptsResult> {
    this.require("prompts");
    return this.request("prompts/list", cursor === undefined ? undefined : { cursor }, options);
  }

  prompts(): Promise<Prompt[]> {
    return this.caches.prompts.get();
  }

  getPrompt(name: string, args: Record<string, string> = {}, options?: RequestOptions): Promise<GetPromptResult> {
    this.require("prompts");
    return this.request("prompts/get", { name, arguments: args }, options);
  }

  complete(params: CompleteParams, options?: RequestOptions): Promise<CompleteResult> {
    // 2024-11-05 had completion without a capability flag, and `context` arrived in 2025-06-18.
    if (this.protocolVersion !== "2024-11-05") this.require("completions");
    const { context, ...rest } = params;
    const sent = context && this.rules?.completionContext ? params : rest;
    return this.request("completion/complete", sent as unknown as JsonObject, options);
  }

  async setLogLevel(level: LogLevel, options?: RequestOptions): Promise<void> {
    this.require("logging");
    await this.request("logging/setLevel", { level }, options);
  }

  /** Replaces the roots and tells the server (notifications/roots/list_changed). */
  setRoots(roots: Root[]): void {
    this.roots = roots;
    if (this.init && this.capabilities.roots?.listChanged) this.connection?.notify("notifications/roots/list_changed");
  }

  async close(): Promise<void> {
    await this.connection?.close();
  }

  /** True between a finished handshake and the connection closing. */
  get isConnected(): boolean {
    return this.connection !== undefined && !this.connection.isClosed && this.init !== undefined;
  }

  private async listAll<K extends string, T>(method: string, key: K): Promise<T[]> {
    const items: T[] = [];
    const seen = new Set<string>();
    let cursor: string | undefined;
    do {
      const page: JsonObject = await this.request(method, cursor === undefined ? undefined : { cursor });
      items.push(...((page[key] as T[] | undefined) ?? []));
      cursor = typeof page.nextCursor === "string" ? page.nextCursor : undefined;
      // A server that repeats a cursor would loop forever.
      if (cursor !== undefined && seen.has(cursor)) throw new Error(`${method}: the server repeated a cursor`);
      if (cursor !== undefined) seen.add(cursor);
    } while (cursor !== undefined);
    return items;
  }

  private require(capability: keyof ServerCapabilities, flag?: string): void {
    const caps = this.init?.capabilities;
    if (!caps) throw new Error("The client is not connected: call connect first");
    const value = caps[capability] as Record<string, unknown> | undefined;
    if (!value || (flag && !value[flag])) {
      throw new McpError(
        ErrorCode.MethodNotFound,
        `The server does not offer ${flag ? `${capability}.${flag}` : capability} (not in its declared capabilities)`,
      );
    }
  }

  private onRequest(inbound: InboundRequest): JsonObject | Promise<JsonObject> {
    const ctx: ClientRequestContext = {
      get signal() {
        return inbound.signal;
      },
      requestId: inbound.id,
    };
    const params = (inbound.params ?? {}) as JsonObject;
    const caps = this.capabilities;
    switch (inbound.method) {
      case "ping":
        return {};
      case "sampling/createMessage":
        if (this.options.sampling && caps.sampling)
          return Promise.resolve(
            this.options.sampling(params as unknown as CreateMessageParams, ctx),
          ) as unknown as Promise<JsonObject>;
        break;
      case "elicitation/create":
        if (this.options.elicitation && caps.elicitation) return this.elicit(params as unknown as ElicitParams, ctx);
        break;
      case "roots/list":
        if (caps.roots) return { roots: this.roots } as unknown as JsonObject;
        break;
    }
    // basic/lifecycle §Capability Negotiation: undeclared means not found.
    throw new McpError(ErrorCode.MethodNotFound, `Method not found: ${inbound.method}`);
  }

  private async elicit(params: ElicitParams, ctx: ClientRequestContext): Promise<JsonObject> {
    const handler = this.options.elicitation as NonNullable<ClientOptions["elicitation"]>;
    const mode = params.mode ?? "form";
    const declared = this.capabilities.elicitation ?? {};
    if (mode === "url" && !declared.url)
      throw new McpError(ErrorCode.InvalidParams, "This client did not declare URL-mode elicitation");
    const result = await handler(params, ctx);
    if (result.action === "accept" && params.mode !== "url") {
      return { ...result, content: applyElicitationDefaults(params, result.content) } as unknown as JsonObject;
    }
    return result as unknown as JsonObject;
  }

  private onNotification(notification: JsonRpcNotification): void {
    const kind = LIST_CHANGED[notification.method];
    if (kind) {
      this.caches[kind].invalidate();
      if (kind === "resources") this.caches.resourceTemplates.invalidate();
    }
    const set = this.listeners.get(notification.method);
    if (!set) return;
    const params = notification.params ?? {};
    for (const listener of set) {
      try {
        listener(params, notification);
      } catch (error) {
        this.options.onError?.(error);
      }
    }
  }
}

export function createClient(options: ClientOptions): Client {
  return new Client(options);
}
