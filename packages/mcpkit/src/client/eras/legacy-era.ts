import { ErrorCode, McpError } from "../../jsonrpc/errors.js";
import type { JsonObject, JsonRpcNotification } from "../../jsonrpc/types.js";
import { type RevisionRules, revisionRules } from "../../protocol/revisions.js";
import type { ClientCapabilities, ServerCapabilities } from "../../protocol/types/capabilities.js";
import type { Implementation, LogLevel } from "../../protocol/types/common.js";
import type { CallToolResult, Tool } from "../../protocol/types/features.js";
import type { InitializeResult } from "../../protocol/types/lifecycle.js";
import type { SubscriptionFilter } from "../../protocol/types/modern.js";
import {
  isLegacyRevision,
  isSupportedRevision,
  LATEST_LEGACY_REVISION,
  LEGACY_REVISIONS,
  type Revision,
} from "../../protocol/versions.js";
import type { ServerDescription } from "../server-description.js";
import type { ListenOptions, Subscription, SubscriptionListener } from "../subscription.js";
import type { CallOptions, ClientEra, EraHost } from "./client-era.js";
import { withMeta } from "./envelope.js";
import { LegacySubscriptions } from "./legacy-listen.js";

/** What an HTTP transport reports when the server answered 404 to our session id. */
const isSessionExpired = (error: unknown) =>
  error instanceof McpError && (error.data as { reason?: unknown } | undefined)?.reason === "session-expired";

/**
 * A server of a legacy revision (2024-11-05 … 2025-11-25): the `initialize` handshake
 * (basic/lifecycle), requests within its session, a new session when the server forgot
 * ours, and listen() built from list_changed notifications and resources/subscribe.
 */
export class LegacyEra implements ClientEra {
  readonly kind = "legacy";
  readonly listsExpire = false;
  private readonly host: EraHost;
  private init!: InitializeResult;
  /** Counts sessions renewed after expiry, so a late failure from an old one does not renew again. */
  private generation = 0;
  private renewal: Promise<void> | undefined;
  private readonly subscriptions: LegacySubscriptions;
  /** What this client asked of the session, to ask again of a renewed one: its log level and subscribed URIs. */
  private logLevel: LogLevel | undefined;
  private readonly subscribed = new Set<string>();

  private constructor(host: EraHost) {
    this.host = host;
    this.subscriptions = new LegacySubscriptions({
      capabilities: () => this.serverCapabilities,
      subscribe: (uri) => this.subscribe(uri),
      unsubscribe: (uri) => this.unsubscribe(uri),
    });
  }

  /** Opens a session: initialize asking for `version`, then notifications/initialized. */
  static async connect(host: EraHost, version: string): Promise<LegacyEra> {
    const era = new LegacyEra(host);
    await era.handshake(version);
    return era;
  }

  /** basic/lifecycle §Initialization: initialize, check the revision, then notifications/initialized. */
  private async handshake(version: string): Promise<void> {
    const { connection } = this.host;
    const result = await connection.request<InitializeResult>("initialize", {
      protocolVersion: version,
      capabilities: this.host.capabilities(false),
      clientInfo: this.host.clientInfo,
    });
    // basic/lifecycle §Version Negotiation: a revision we do not speak ends the connection.
    if (!isLegacyRevision(result.protocolVersion)) {
      throw new McpError(
        ErrorCode.InvalidRequest,
        `The server answered with protocol revision ${JSON.stringify(result.protocolVersion)}, which this client does not support (${LEGACY_REVISIONS.join(", ")})`,
      );
    }
    this.init = result;
    connection.transport.setProtocolVersion?.(result.protocolVersion);
    connection.notify("notifications/initialized");
  }

  get protocolVersion(): Revision | undefined {
    const version = this.init.protocolVersion;
    return isSupportedRevision(version) ? version : undefined;
  }
  get rules(): RevisionRules | undefined {
    const version = this.protocolVersion;
    return version ? revisionRules(version) : undefined;
  }
  get serverInfo(): Implementation {
    return this.init.serverInfo;
  }
  get serverCapabilities(): ServerCapabilities {
    return this.init.capabilities;
  }
  get instructions(): string | undefined {
    return this.init.instructions;
  }
  get capabilities(): ClientCapabilities {
    return this.host.capabilities(false);
  }

  describe(): ServerDescription {
    return { ...this.init, era: "legacy" };
  }

  request<R extends object = JsonObject>(
    method: string,
    params: object | undefined,
    options?: CallOptions,
  ): Promise<R> {
    const { connection } = this.host;
    const generation = this.generation;
    const sent = withMeta(params as JsonObject | undefined, options?.meta);
    return connection.request<R>(method, sent, options).catch(async (error: unknown) => {
      if (!isSessionExpired(error) || connection.isClosed) throw error;
      await this.renewSession(generation);
      return connection.request<R>(method, sent, options);
    });
  }

  /**
   * transports §Session Management item 4: the server forgot our session (the transport
   * saw HTTP 404 and dropped the session id), so start a new one on the same transport.
   * Requests that fail together share one renewal; one sent before a renewal that already
   * finished just retries.
   */
  private renewSession(generation: number): Promise<void> {
    if (generation !== this.generation) return Promise.resolve();
    const version = this.init.protocolVersion;
    this.renewal ??= this.handshake(isLegacyRevision(version) ? version : LATEST_LEGACY_REVISION)
      .then(async () => {
        this.generation++;
        this.host.invalidateCaches();
        await this.restore();
        this.host.sessionRenewed(this.describe());
      })
      .finally(() => {
        this.renewal = undefined;
      });
    return this.renewal;
  }

  async callTool(name: string, args: Record<string, unknown>, options?: CallOptions): Promise<CallToolResult> {
    const params: JsonObject = { name, arguments: args };
    // basic/utilities/tasks §Creating Tasks: a task-augmented request carries `task`.
    if (options?.asTask) params.task = options.asTask.ttlMs === undefined ? {} : { ttl: options.asTask.ttlMs };
    return this.request<CallToolResult>("tools/call", params, options);
  }

  acceptTools(tools: Tool[], _whole: boolean): Tool[] {
    return tools;
  }

  listen(filter: SubscriptionFilter, listener: SubscriptionListener, options?: ListenOptions): Promise<Subscription> {
    return this.subscriptions.listen(filter, listener, options);
  }

  /**
   * A new session knows nothing of the old one's log level and subscriptions: asked again,
   * so updates and logs keep coming. A refusal (the resource is gone) is reported, not fatal.
   */
  private async restore(): Promise<void> {
    const { connection } = this.host;
    const report = (error: unknown) => this.host.options.onError?.(error);
    if (this.logLevel) await connection.request("logging/setLevel", { level: this.logLevel }).catch(report);
    for (const uri of this.subscribed) {
      await connection.request("resources/subscribe", { uri }).catch((error: unknown) => {
        this.subscribed.delete(uri);
        report(error);
      });
    }
  }

  async subscribe(uri: string, options?: CallOptions): Promise<void> {
    await this.request("resources/subscribe", { uri }, options);
    this.subscribed.add(uri);
  }

  async unsubscribe(uri: string, options?: CallOptions): Promise<void> {
    this.subscribed.delete(uri);
    await this.request("resources/unsubscribe", { uri }, options);
  }

  async setLogLevel(level: LogLevel, options?: CallOptions): Promise<void> {
    await this.request("logging/setLevel", { level }, options);
    this.logLevel = level;
  }

  async ping(options?: CallOptions): Promise<void> {
    await this.request("ping", undefined, options);
  }

  route(notification: JsonRpcNotification): undefined {
    this.subscriptions.route(notification);
  }

  rootsChanged(): void {
    if (this.capabilities.roots?.listChanged) this.host.connection.notify("notifications/roots/list_changed");
  }

  closed(reason?: Error): void {
    this.subscriptions.clear(reason);
  }
}
