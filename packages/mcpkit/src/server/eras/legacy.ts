import { ErrorCode, McpError } from "../../jsonrpc/errors.js";
import type { JsonObject, JsonRpcNotification, RequestId } from "../../jsonrpc/types.js";
import { type RevisionRules, revisionRules } from "../../protocol/revisions.js";
import type { ClientCapabilities, ServerCapabilities } from "../../protocol/types/capabilities.js";
import type { Implementation, LogLevel } from "../../protocol/types/common.js";
import { isLegacyRevision, type Revision } from "../../protocol/versions.js";
import type { Connection } from "../../session/connection.js";
import type { InboundRequest } from "../../session/inbound.js";
import { runChain } from "../../session/middleware.js";
import type { ConnectionOptions, RequestOptions } from "../../session/options.js";
import type { MessageInfo, TransportBinding } from "../../transports/transport.js";
import type { ClientPeer } from "../dispatch/peer.js";
import { shouldLog } from "../dispatch/request-context.js";
import { dispatch } from "../dispatch/table.js";
import type { ListKind, ServerEvent } from "../events.js";
import { serverMessage } from "../middleware/context.js";
import { principalOf } from "../principal.js";
import type { Registry } from "../registry/registry.js";
import type { ServerSession, SessionOptions } from "../session.js";
import type { SessionRecord } from "../session-store.js";
import { LIST_KINDS, SeenViews, viewsDiffer } from "../views.js";
import type { Viewer } from "../visibility.js";
import { handshake } from "./handshake.js";

/** What a legacy session needs of its server beyond the definition: to join and leave its fan-out. */
export interface SessionHost extends Registry {
  attachSession(session: LegacySession): void;
  detachSession(session: LegacySession): void;
}

/** Before initialize: no capabilities on either side (shared, never mutated). */
const NONE = Object.freeze({}) as ClientCapabilities & ServerCapabilities;

const NOT_INITIALIZED: RevisionRules = {
  ...revisionRules("2025-11-25"),
  methods: new Set(["ping"]),
};

/**
 * The legacy era adapter (2024-11-05 … 2025-11-25): the `initialize` handshake, then
 * dispatch with the negotiated revision's rules, and the per-connection state those
 * revisions keep (log level, subscriptions). The session is also its connection's options
 * (onRequest, onNotification…): prototype methods rather than closures, since an idle HTTP
 * server may hold tens of thousands of sessions.
 */
export class LegacySession implements ClientPeer, ServerSession, ConnectionOptions {
  rules: RevisionRules = NOT_INITIALIZED;
  revision: Revision | undefined;
  clientInfo: Implementation | undefined;
  clientCapabilities: ClientCapabilities = NONE;
  serverCapabilities: ServerCapabilities = NONE;
  /** Bumped whenever what a SessionRecord holds changes, so a store saves only then. */
  stateVersion = 0;
  private level: LogLevel | undefined;
  private readonly server: SessionHost;
  private connection!: Connection;
  private readonly options: SessionOptions;
  /** Subscribed URIs, each with how to end its resource's own watch (ResourceWatch), if it has one. */
  private subscriptions: Map<string, (() => void | Promise<void>) | undefined> | undefined;
  private initializedByClient = false;
  private whenInitialized: Promise<void> | undefined;
  private markInitialized: (() => void) | undefined;
  private ended = false;
  private closedPromise: Promise<void> | undefined;
  private markClosed: (() => void) | undefined;
  /** Names this session disabled (session.disable); made on first use. */
  private disabledNames: Set<string> | undefined;
  /** What this session was last shown of each list, where visibility can make it differ. */
  private views: SeenViews | undefined;
  /** The verified token of this session's requests (an HTTP session is bound to one principal). */
  private auth: unknown;

  constructor(server: SessionHost, options: SessionOptions) {
    this.server = server;
    this.options = options;
  }

  get logLevel(): LogLevel | undefined {
    return this.level;
  }

  set logLevel(level: LogLevel | undefined) {
    if (level !== this.level) this.stateVersion++;
    this.level = level;
  }

  /** What another node needs to serve this session, once initialized. */
  record(principal: string | undefined): SessionRecord | undefined {
    const { revision, sessionId } = this;
    if (revision === undefined || sessionId === undefined || !isLegacyRevision(revision)) return undefined;
    return {
      id: sessionId,
      revision,
      ...(this.clientInfo && { clientInfo: this.clientInfo }),
      clientCapabilities: this.clientCapabilities,
      ...(this.level && { logLevel: this.level }),
      subscriptions: [...(this.subscriptions?.keys() ?? [])],
      ...(principal !== undefined && { principal }),
      initialized: this.initializedByClient,
    };
  }

  /**
   * Takes the state a record holds (a session opened on another node, or changed there).
   * The server's capabilities are this node's: every node serves the same definition.
   */
  restore(record: SessionRecord): void {
    this.revision = record.revision;
    this.rules = revisionRules(record.revision);
    this.clientCapabilities = record.clientCapabilities;
    this.clientInfo = record.clientInfo;
    this.serverCapabilities = this.server.capabilities();
    this.level = record.logLevel;
    this.subscriptions =
      record.subscriptions.length > 0 ? new Map(record.subscriptions.map((uri) => [uri, undefined])) : undefined;
    if (record.initialized && !this.initializedByClient) {
      this.initializedByClient = true;
      this.markInitialized?.();
    }
  }

  /** The connection this session answers on (set once, before it starts). */
  bind(connection: Connection): void {
    this.connection = connection;
  }

  /** Resolves when the session has closed (made on first use). */
  get closed(): Promise<void> {
    this.closedPromise ??= this.ended
      ? Promise.resolve()
      : new Promise((resolve) => {
          this.markClosed = resolve;
        });
    return this.closedPromise;
  }

  /** @internal ConnectionOptions */
  get timeoutMs(): number | undefined {
    return this.options.requestTimeoutMs ?? this.server.options.requestTimeoutMs;
  }

  /** @internal ConnectionOptions */
  get requestIdPrefix(): string | undefined {
    return this.options.requestIdPrefix;
  }

  /** @internal ConnectionOptions */
  batchesAllowed(): boolean {
    return this.rules.batches;
  }

  /** @internal ConnectionOptions */
  unreadableIdNull(): boolean {
    return this.rules.unreadableIdNull;
  }

  /** @internal ConnectionOptions */
  onError(error: unknown): void {
    this.server.onError(error);
  }

  /** @internal ConnectionOptions */
  onClose(): void {
    this.ended = true;
    this.server.detachSession(this);
    for (const stop of this.subscriptions?.values() ?? []) void this.stopWatch(stop);
    this.markClosed?.();
  }

  /** @internal A list change or resource update, from the server's event bus. */
  serverEvent(event: ServerEvent, key?: string): void {
    if (this.revision === undefined) return;
    if (event.type === "list_changed") this.listChanged(event.kind, key);
    else this.resourceUpdated(event.uri, key);
  }

  get sessionId(): string | undefined {
    return this.connection.transport.sessionId;
  }

  /** @internal The binding of this session's transport (for middleware). */
  get binding(): TransportBinding | undefined {
    return this.connection.transport.binding;
  }

  /** @internal ConnectionOptions */
  onRequest(inbound: InboundRequest): JsonObject | Promise<JsonObject> {
    if (inbound.info?.auth !== undefined) this.auth = inbound.info.auth;
    const chain = this.server.middleware;
    if (chain === undefined) return this.handle(inbound, inbound.params);
    const ctx = serverMessage({
      kind: "request",
      method: inbound.method,
      params: inbound.params,
      id: inbound.id,
      info: inbound.info,
      era: "legacy",
      revision: this.revision,
      sessionId: this.sessionId,
      session: this,
      client: this.clientInfo,
      server: this.server.info,
      transport: this.binding,
      signal: () => inbound.signal,
    });
    return runChain(chain, ctx, (c) => this.handle(inbound, c.params));
  }

  private handle(inbound: InboundRequest, params: JsonObject | undefined): JsonObject | Promise<JsonObject> {
    if (inbound.method === "initialize") return this.initialize(params ?? {});
    // basic/lifecycle §Initialization: nothing but ping before initialize.
    if (this.revision === undefined && inbound.method !== "ping") {
      throw new McpError(
        ErrorCode.InvalidRequest,
        `Received ${inbound.method} before initialize: the client must send initialize first`,
      );
    }
    return dispatch(this.server, this, inbound, params);
  }

  private initialize(params: JsonObject): JsonObject {
    if (this.revision !== undefined) {
      throw new McpError(ErrorCode.InvalidRequest, "This session is already initialized: initialize may be sent once");
    }
    const agreed = handshake(this.server, params);
    this.revision = agreed.revision;
    this.rules = revisionRules(agreed.revision);
    this.clientCapabilities = agreed.clientCapabilities;
    this.clientInfo = agreed.clientInfo;
    // What this server serves (what dispatch checks against), not the revision's wire form of it.
    this.serverCapabilities = this.server.capabilities();
    // What the client is about to list: later changes are compared with it.
    if (LIST_KINDS.some((kind) => viewsDiffer(this.server, kind, this))) this.seenViews().noteDiffering();
    this.stateVersion++;
    return agreed.result as unknown as JsonObject;
  }

  /** @internal ConnectionOptions */
  onNotification(notification: JsonRpcNotification, info: MessageInfo | undefined): void {
    const chain = this.server.middleware;
    if (chain === undefined) {
      this.handleNotification(notification);
      return;
    }
    const ctx = serverMessage({
      kind: "notification",
      method: notification.method,
      params: notification.params,
      id: undefined,
      info,
      era: "legacy",
      revision: this.revision,
      sessionId: this.sessionId,
      session: this,
      client: this.clientInfo,
      server: this.server.info,
      transport: this.binding,
    });
    runChain(chain, ctx, (c) => {
      this.handleNotification(c.params === notification.params ? notification : { ...notification, params: c.params });
      return {};
    }).catch((error: unknown) => this.server.onError(error));
  }

  private handleNotification(notification: JsonRpcNotification): void {
    if (notification.method === "notifications/initialized") {
      this.initializedByClient = true;
      this.stateVersion++;
      this.markInitialized?.();
      this.server.options.onSession?.(this);
      return;
    }
    this.server.options.onNotification?.(notification, this);
    this.options.onNotification?.(notification, this);
  }

  /** The peer's session is this one. */
  get session(): ServerSession {
    return this;
  }

  /** basic/lifecycle: the server sends no requests (but pings) before `initialized`. */
  private initializedSignal(signal: AbortSignal | undefined): Promise<void> {
    if (this.initializedByClient) return Promise.resolve();
    this.whenInitialized ??= new Promise<void>((resolve) => {
      this.markInitialized = resolve;
    });
    if (!signal) return this.whenInitialized;
    return Promise.race([
      this.whenInitialized,
      new Promise<void>((_, reject) => {
        if (signal.aborted) reject(signal.reason);
        signal.addEventListener("abort", () => reject(signal.reason), { once: true });
      }),
    ]);
  }

  /** A request to the client made on the session (ServerSession.request): through the server's middleware. */
  request(method: string, params: JsonObject, options?: RequestOptions): Promise<JsonObject> {
    const chain = this.server.middleware;
    if (chain === undefined) return this.ask(method, params, options);
    const ctx = serverMessage({
      kind: "request",
      direction: "outbound",
      method,
      params,
      id: undefined,
      info: this.auth === undefined ? undefined : { auth: this.auth },
      era: "legacy",
      revision: this.revision,
      sessionId: this.sessionId,
      session: this,
      client: this.clientInfo,
      server: this.server.info,
      transport: this.binding,
      signal: () => options?.signal,
    });
    return runChain(chain, ctx, (c) => this.ask(method, c.params ?? {}, options));
  }

  /** @internal ClientPeer: a request to the client whose middleware has run (RequestContext). */
  async ask(method: string, params: JsonObject, options?: RequestOptions): Promise<JsonObject> {
    if (method !== "ping") {
      if (!this.rules.methods.has(method))
        throw new McpError(ErrorCode.MethodNotFound, `${method} does not exist in protocol revision ${this.revision}`);
      await this.initializedSignal(options?.signal);
    }
    return this.connection.request(method, params, options);
  }

  notify(method: string, params: JsonObject, relatedRequestId?: RequestId): void {
    this.connection.notify(method, params, relatedRequestId);
  }

  subscribe(uri: string, stop?: () => void | Promise<void>): void {
    this.subscriptions ??= new Map();
    // Subscribed already, the one watch there is goes on; closed meanwhile, there is none to keep.
    if (this.subscriptions.has(uri) || this.ended) {
      void this.stopWatch(stop);
      return;
    }
    this.stateVersion++;
    this.subscriptions.set(uri, stop);
  }

  async unsubscribe(uri: string): Promise<void> {
    if (!this.subscriptions?.has(uri)) return;
    const stop = this.subscriptions.get(uri);
    this.subscriptions.delete(uri);
    this.stateVersion++;
    await this.stopWatch(stop);
  }

  private async stopWatch(stop: (() => void | Promise<void>) | undefined): Promise<void> {
    try {
      await stop?.();
    } catch (error) {
      this.server.onError(error);
    }
  }

  /**
   * A list changed on the server. Where visibility rules or this session's disables make
   * its view differ from the full list, the client is told only if its view changed.
   */
  private listChanged(kind: ListKind, key?: string): void {
    const declared = this.serverCapabilities[kind] as { listChanged?: boolean } | undefined;
    if (!declared?.listChanged) return;
    if (this.viewChanged(kind)) this.connection.notify(`notifications/${kind}/list_changed`, {}, undefined, key);
  }

  /** Whether what this session sees of `kind` changed since last noted (notes it); true when unknown. */
  private viewChanged(kind: ListKind): boolean {
    return this.views
      ? this.views.changed(kind)
      : !viewsDiffer(this.server, kind, this) || this.seenViews().changed(kind);
  }

  /** Made on first need: a session on a server without visibility rules keeps none. */
  private seenViews(): SeenViews {
    this.views ??= new SeenViews(this.server, this, () => this.viewer);
    return this.views;
  }

  /** This session as a visibility rule sees it. */
  get viewer(): Viewer {
    const { auth, clientInfo, clientCapabilities } = this;
    return { principal: principalOf(auth), auth, session: this, clientInfo, clientCapabilities };
  }

  get hasDisabled(): boolean {
    return (this.disabledNames?.size ?? 0) > 0;
  }

  isDisabled(name: string): boolean {
    return this.disabledNames?.has(name) ?? false;
  }

  disable(name: string): void {
    if (this.isDisabled(name)) return;
    this.changeView(() => {
      this.disabledNames ??= new Set();
      this.disabledNames.add(name);
    });
  }

  enable(name: string): void {
    if (!this.isDisabled(name)) return;
    this.changeView(() => this.disabledNames?.delete(name));
  }

  /** Notes every view, changes what this session sees, and tells the client of the lists that changed. */
  private changeView(change: () => void): void {
    const noted = this.revision !== undefined;
    if (noted) for (const kind of LIST_KINDS) this.seenViews().note(kind);
    change();
    if (noted) for (const kind of LIST_KINDS) this.listChanged(kind);
  }

  private resourceUpdated(uri: string, key: string | undefined): void {
    if (this.subscriptions?.has(uri))
      this.connection.notify("notifications/resources/updated", { uri }, undefined, key);
  }

  wantsLog(level: LogLevel): boolean {
    return shouldLog(level, this.logLevel);
  }

  async ping(options?: RequestOptions): Promise<void> {
    await this.connection.request("ping", undefined, options);
  }

  log(level: LogLevel, data: unknown, logger?: string): void {
    if (this.revision === undefined || !shouldLog(level, this.logLevel)) return;
    this.notify("notifications/message", logger === undefined ? { level, data } : { level, logger, data });
  }

  close(): Promise<void> {
    return this.connection.close();
  }

  /** @internal The server stops: each request still running is answered with `reason`, if its handler honours its signal. */
  stopRequests(reason: unknown): void {
    this.connection.stopHandlers(reason);
  }
}
