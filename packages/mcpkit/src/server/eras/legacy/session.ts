import type { Connection } from "../../../connection/connection.js";
import type { RequestOptions } from "../../../connection/connection-options.js";
import { runChain } from "../../../connection/middleware-chain.js";
import { ErrorCode, McpError } from "../../../jsonrpc/errors.js";
import { asJson, fromJson } from "../../../jsonrpc/message.js";
import type { JsonObject, RequestId } from "../../../jsonrpc/types.js";
import { type RevisionRules, revisionRules } from "../../../protocol/revisions.js";
import type { ClientCapabilities, ServerCapabilities } from "../../../protocol/types/capabilities.js";
import type { Implementation, LogLevel } from "../../../protocol/types/common.js";
import type { InitializeResult } from "../../../protocol/types/lifecycle.js";
import { isLegacyRevision, type Revision } from "../../../protocol/versions.js";
import type { TransportBinding } from "../../../transports/transport.js";
import type { ClientPeer } from "../../dispatch/client-peer.js";
import { shouldLog } from "../../dispatch/request-context.js";
import type { ListKind, ServerEvent } from "../../events.js";
import { type MessageOrigin, outboundRequest } from "../../middleware/message-context.js";
import { principalOf } from "../../principal.js";
import type { Registry } from "../../registry/registry.js";
import type { ServerSession } from "../../server-session.js";
import type { SessionRecord } from "../../session-store.js";
import type { StoredSession } from "../../stored-session.js";
import { LIST_KINDS, viewsDiffer } from "../../views.js";
import type { Viewer } from "../../visibility.js";
import { handshake } from "../handshake.js";
import { SessionViews } from "./session-views.js";

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
 * One client connected with the `initialize` handshake (2024-11-05 … 2025-11-25): the
 * state the handshake settled and the session's requests changed since (log level,
 * subscriptions), seen by users (ServerSession), by handlers (ClientPeer) and by a
 * SessionStore (StoredSession). Its connection's messages are taken by LegacyInbound
 * (inbound.ts); what it may see of the lists, by SessionViews (views.ts).
 */
export class LegacySession implements ClientPeer, ServerSession, StoredSession {
  rules: RevisionRules = NOT_INITIALIZED;
  revision: Revision | undefined;
  clientInfo: Implementation | undefined;
  clientCapabilities: ClientCapabilities = NONE;
  serverCapabilities: ServerCapabilities = NONE;
  stateVersion = 0;
  /** The client sent notifications/initialized. */
  initializedByClient = false;
  private level: LogLevel | undefined;
  private readonly server: SessionHost;
  private connection!: Connection;
  /** Subscribed URIs, each with how to end its resource's own watch (ResourceWatch), if it has one. */
  private subscriptions: Map<string, (() => void | Promise<void>) | undefined> | undefined;
  /** Set while a newer record saved by another node loads (StoredSession.reloading). */
  private reload: Promise<void> | undefined;
  private whenInitialized: Promise<void> | undefined;
  private markInitialized: (() => void) | undefined;
  private ended = false;
  private closedPromise: Promise<void> | undefined;
  private markClosed: (() => void) | undefined;
  /** Made on first need (session.disable, or visibility rules on the server). */
  private views: SessionViews | undefined;
  private messageOrigin: MessageOrigin | undefined;
  /** The verified token of this session's requests (an HTTP session is bound to one principal). */
  auth: unknown;

  constructor(server: SessionHost) {
    this.server = server;
  }

  get logLevel(): LogLevel | undefined {
    return this.level;
  }

  set logLevel(level: LogLevel | undefined) {
    if (level !== this.level) this.stateVersion++;
    this.level = level;
  }

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

  /** The server's capabilities are this node's: every node serves the same definition. */
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

  /** basic/lifecycle §Initialization: the handshake settles the revision and the client's declarations. */
  initialize(params: JsonObject): InitializeResult {
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
    if (this.listsDiffer()) this.sessionViews().noteInitial();
    this.stateVersion++;
    return agreed.result;
  }

  /** notifications/initialized: the server may now send requests. */
  initialized(): void {
    this.initializedByClient = true;
    this.stateVersion++;
    this.markInitialized?.();
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

  /** The transport closed: the session leaves its server, and its resources' watches end. */
  closedByTransport(): void {
    this.ended = true;
    this.server.detachSession(this);
    for (const stop of this.subscriptions?.values() ?? []) void this.stopWatch(stop);
    this.markClosed?.();
  }

  /** A list change or resource update, from the server's event bus. */
  serverEvent(event: ServerEvent, key?: string): void {
    if (this.revision === undefined) return;
    if (event.type === "list_changed") this.listChanged(event.kind, key);
    else this.resourceUpdated(event.uri, key);
  }

  get sessionId(): string | undefined {
    return this.connection.transport.sessionId;
  }

  /** The binding of this session's transport (for middleware). */
  get binding(): TransportBinding | undefined {
    return this.connection.transport.binding;
  }

  /** The peer's session is this one. */
  get session(): ServerSession {
    return this;
  }

  /** Where this session's messages travel, as middleware sees it (made once middleware runs). */
  get origin(): MessageOrigin {
    this.messageOrigin ??= new LegacyOrigin(this, this.server.info);
    return this.messageOrigin;
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
  request<R extends object = JsonObject>(method: string, params: object, options?: RequestOptions): Promise<R> {
    return this.requestJson(method, asJson(params), options).then(fromJson<R>);
  }

  private requestJson(method: string, params: JsonObject, options?: RequestOptions): Promise<JsonObject> {
    const chain = this.server.middleware;
    if (chain === undefined) return this.ask(method, params, options);
    const info = this.auth === undefined ? undefined : { auth: this.auth };
    const ctx = outboundRequest(this.origin, method, params, { info, signal: () => options?.signal });
    return runChain(chain, ctx, (c) => this.ask(method, c.params ?? {}, options));
  }

  /** ClientPeer: a request to the client whose middleware has run (RequestContext). */
  async ask(method: string, params: JsonObject, options?: RequestOptions): Promise<JsonObject> {
    if (method !== "ping") {
      if (!this.rules.methods.has(method))
        throw new McpError(ErrorCode.MethodNotFound, `${method} does not exist in protocol revision ${this.revision}`);
      await this.initializedSignal(options?.signal);
    }
    return this.connection.request(method, params, options);
  }

  notify(method: string, params: object, relatedRequestId?: RequestId): void {
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
      : !viewsDiffer(this.server, kind, this) || this.sessionViews().changed(kind);
  }

  /** Whether any list can look different to this session than in full (no views are made to know). */
  private listsDiffer(): boolean {
    return LIST_KINDS.some((kind) => viewsDiffer(this.server, kind, this));
  }

  private sessionViews(): SessionViews {
    this.views ??= new SessionViews(this.server, this, () => this.viewer);
    return this.views;
  }

  /** This session as a visibility rule sees it. */
  get viewer(): Viewer {
    const { auth, clientInfo, clientCapabilities } = this;
    return { principal: principalOf(auth), auth, session: this, clientInfo, clientCapabilities };
  }

  get hasDisabled(): boolean {
    return this.views?.hasDisabled ?? false;
  }

  isDisabled(name: string): boolean {
    return this.views?.isDisabled(name) ?? false;
  }

  disable(name: string): void {
    if (this.isDisabled(name)) return;
    this.sessionViews().change(name, true, this.revision !== undefined, (kind) => this.listChanged(kind));
  }

  enable(name: string): void {
    if (!this.isDisabled(name)) return;
    this.sessionViews().change(name, false, this.revision !== undefined, (kind) => this.listChanged(kind));
  }

  private resourceUpdated(uri: string, key: string | undefined): void {
    if (this.subscriptions?.has(uri))
      this.connection.notify("notifications/resources/updated", { uri }, undefined, key);
    else if (this.reload) void this.afterReload(this.reload, uri, key);
  }

  reloading(loaded: Promise<unknown>): void {
    const reload = loaded.then(
      () => undefined,
      () => undefined, // the loader reports its own failure
    );
    this.reload = reload;
    void reload.then(() => {
      if (this.reload === reload) this.reload = undefined;
    });
  }

  /** An update that came while a newer record was loading, judged again by that record. */
  private async afterReload(reload: Promise<void>, uri: string, key: string | undefined): Promise<void> {
    await reload;
    try {
      this.resourceUpdated(uri, key);
    } catch (error) {
      this.server.onError(error);
    }
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

  /** The server stops: each request still running is answered with `reason`, if its handler honours its signal. */
  stopRequests(reason: unknown): void {
    this.connection.stopHandlers(reason);
  }
}

/** A legacy session's messages as middleware sees where they travel: read when each message is. */
class LegacyOrigin implements MessageOrigin {
  readonly era = "legacy";

  constructor(
    private readonly of: LegacySession,
    readonly server: Implementation,
  ) {}

  get revision() {
    return this.of.revision;
  }
  get sessionId() {
    return this.of.sessionId;
  }
  get session() {
    return this.of;
  }
  get client() {
    return this.of.clientInfo;
  }
  get transport() {
    return this.of.binding;
  }
}
