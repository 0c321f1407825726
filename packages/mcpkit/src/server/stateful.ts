import { ErrorCode, invalidParams, McpError } from "../jsonrpc/errors.js";
import type { JsonObject, JsonRpcNotification, RequestId } from "../jsonrpc/types.js";
import { type RevisionRules, revisionRules } from "../protocol/revisions.js";
import type { ClientCapabilities, ServerCapabilities } from "../protocol/types/capabilities.js";
import type { Implementation, LogLevel } from "../protocol/types/common.js";
import type { InitializeResult } from "../protocol/types/lifecycle.js";
import type { Revision } from "../protocol/versions.js";
import { negotiate } from "../protocol/versions.js";
import { Connection, type ConnectionOptions, type RequestOptions } from "../session/connection.js";
import type { InboundRequest } from "../session/inbound.js";
import type { MessageInfo, Transport } from "../transports/transport.js";
import { shouldLog } from "./context.js";
import { dispatch } from "./dispatch.js";
import { encodeDescriptor } from "./handlers/encode.js";
import type { ClientPeer } from "./peer.js";
import type { ServerEvent } from "./ports.js";
import type { ListKind, McpServer } from "./server.js";
import { isModernRequest, serveModern } from "./stateless.js";

export interface SessionOptions {
  /** Timeout for requests this session sends to the client, ms (default: the server's). */
  requestTimeoutMs?: number;
  /** Notifications from the client other than the lifecycle's (e.g. notifications/roots/list_changed). */
  onNotification?: (notification: JsonRpcNotification, session: ServerSession) => void;
  /**
   * Serve as if `initialize` had negotiated this revision with a client that declared no
   * capabilities: the stateless Streamable HTTP mode, where each request stands alone.
   */
  assumeRevision?: Revision;
  /** Serve every request as a 2026-07-28 request (the modern HTTP path). */
  modern?: boolean;
}

/** One client connected with the `initialize` handshake (revisions up to 2025-11-25). */
export interface ServerSession {
  readonly sessionId: string | undefined;
  /** The negotiated revision, once initialized. */
  readonly revision: Revision | undefined;
  readonly clientInfo: Implementation | undefined;
  readonly clientCapabilities: ClientCapabilities;
  /** Resolves when the session has closed. */
  readonly closed: Promise<void>;
  /** basic/utilities/ping, server to client. */
  ping(options?: RequestOptions): Promise<void>;
  /** Sends notifications/message outside any request (filtered by the client's level). */
  log(level: LogLevel, data: unknown, logger?: string): void;
  /** Sends a request to the client; it must have declared the capability the method needs. */
  request(method: string, params: JsonObject, options?: RequestOptions): Promise<JsonObject>;
  close(): Promise<void>;
}

/** Before initialize: no capabilities on either side (shared, never mutated). */
const NONE = Object.freeze({}) as ClientCapabilities & ServerCapabilities;

const NOT_INITIALIZED: RevisionRules = {
  ...revisionRules("2025-11-25"),
  methods: new Set(["ping"]),
};

/** The stateful era adapter: the handshake, then dispatch with the negotiated revision's rules. */
/**
 * A session as the server fans events out to it. The session is also its connection's
 * options (onRequest, onNotification…): prototype methods rather than closures, since an
 * idle HTTP server may hold tens of thousands of sessions.
 */
export interface AttachedSession extends ServerSession {
  serverEvent(event: ServerEvent): void;
}

class StatefulSession implements ClientPeer, AttachedSession, ConnectionOptions {
  rules: RevisionRules = NOT_INITIALIZED;
  revision: Revision | undefined;
  clientInfo: Implementation | undefined;
  clientCapabilities: ClientCapabilities = NONE;
  serverCapabilities: ServerCapabilities = NONE;
  logLevel: LogLevel | undefined;
  private readonly server: McpServer;
  private readonly connection: Connection;
  private readonly options: SessionOptions;
  private subscriptions: Set<string> | undefined;
  private initializedByClient = false;
  private whenInitialized: Promise<void> | undefined;
  private markInitialized: (() => void) | undefined;
  private ended = false;
  private closedPromise: Promise<void> | undefined;
  private markClosed: (() => void) | undefined;

  constructor(server: McpServer, transport: Transport, options: SessionOptions) {
    this.server = server;
    this.options = options;
    this.connection = new Connection(transport, this);
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
    this.markClosed?.();
  }

  /** @internal A list change or resource update, from the server's event bus. */
  serverEvent(event: ServerEvent): void {
    if (this.revision === undefined) return;
    if (event.type === "list_changed") this.listChanged(event.kind);
    else this.resourceUpdated(event.uri);
  }

  get sessionId(): string | undefined {
    return this.connection.transport.sessionId;
  }

  start(): Promise<void> {
    const assumed = this.options.assumeRevision;
    if (assumed) {
      this.adopt(assumed, {}, undefined);
      this.initializedByClient = true;
    }
    return this.connection.start();
  }

  /** Takes on a negotiated revision and the client's declarations. */
  private adopt(revision: Revision, caps: ClientCapabilities, clientInfo: Implementation | undefined): void {
    this.revision = revision;
    this.rules = revisionRules(revision);
    this.clientCapabilities = caps;
    this.clientInfo = clientInfo;
    this.serverCapabilities = this.server.capabilities();
  }

  /** @internal ConnectionOptions */
  onRequest(inbound: InboundRequest): JsonObject | Promise<JsonObject> {
    // basic/versioning §Backward Compatibility: a request whose _meta names a version is
    // served statelessly; initialize opens the legacy era on this connection.
    if (this.options.modern || isModernRequest(inbound.params)) {
      return serveModern(this.server, inbound, (method, params, related) =>
        this.connection.notify(method, params, related),
      );
    }
    if (inbound.method === "initialize") return this.initialize(inbound.params ?? {});
    // basic/lifecycle §Initialization: nothing but ping before initialize.
    if (this.revision === undefined && inbound.method !== "ping") {
      throw new McpError(
        ErrorCode.InvalidRequest,
        `Received ${inbound.method} before initialize: the client must send initialize first`,
      );
    }
    return dispatch(this.server, this, inbound);
  }

  private initialize(params: JsonObject): JsonObject {
    if (this.revision !== undefined) {
      throw new McpError(ErrorCode.InvalidRequest, "This session is already initialized: initialize may be sent once");
    }
    if (typeof params.protocolVersion !== "string") throw invalidParams('initialize needs a string "protocolVersion"');
    const caps = params.capabilities;
    if (caps !== undefined && (typeof caps !== "object" || caps === null || Array.isArray(caps)))
      throw invalidParams('initialize "capabilities" must be an object');
    const revision = negotiate(params.protocolVersion, this.server.revisions);
    this.adopt(
      revision,
      (caps as ClientCapabilities | undefined) ?? {},
      params.clientInfo as Implementation | undefined,
    );
    const result: InitializeResult = {
      protocolVersion: revision,
      capabilities: this.serverCapabilities,
      serverInfo: this.serverInfo(),
    };
    if (this.server.options.instructions !== undefined) result.instructions = this.server.options.instructions;
    return result as unknown as JsonObject;
  }

  private serverInfo(): Implementation {
    const info = encodeDescriptor(this.server.info, this.rules);
    if (this.rules.icons) return info;
    // websiteUrl and description arrived with icons in 2025-11-25.
    const { websiteUrl: _url, description: _description, ...older } = info;
    return older;
  }

  /** @internal ConnectionOptions */
  onNotification(notification: JsonRpcNotification, _info: MessageInfo | undefined): void {
    if (notification.method === "notifications/initialized") {
      this.initializedByClient = true;
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

  async request(method: string, params: JsonObject, options?: RequestOptions): Promise<JsonObject> {
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

  subscribe(uri: string): void {
    this.subscriptions ??= new Set();
    this.subscriptions.add(uri);
  }

  unsubscribe(uri: string): void {
    this.subscriptions?.delete(uri);
  }

  private listChanged(kind: ListKind): void {
    const declared = this.serverCapabilities[kind] as { listChanged?: boolean } | undefined;
    if (declared?.listChanged) this.notify(`notifications/${kind}/list_changed`, {});
  }

  private resourceUpdated(uri: string): void {
    if (this.subscriptions?.has(uri)) this.notify("notifications/resources/updated", { uri });
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
}

export async function serveSession(
  server: McpServer,
  transport: Transport,
  options: SessionOptions = {},
): Promise<ServerSession> {
  const session = new StatefulSession(server, transport, options);
  server.attachSession(session);
  await session.start();
  return session;
}
