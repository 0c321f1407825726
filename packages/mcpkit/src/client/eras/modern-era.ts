import { DEFAULT_TIMEOUT_MS } from "../../connection/connection-options.js";
import { ErrorCode } from "../../jsonrpc/errors.js";
import type { JsonObject, JsonRpcNotification } from "../../jsonrpc/types.js";
import { META } from "../../protocol/meta.js";
import { type RevisionRules, revisionRules } from "../../protocol/revisions.js";
import type { ClientCapabilities, ServerCapabilities } from "../../protocol/types/capabilities.js";
import type { Implementation, LogLevel } from "../../protocol/types/common.js";
import type { CallToolResult, Tool } from "../../protocol/types/features.js";
import type { DiscoverResult, SubscriptionFilter } from "../../protocol/types/modern.js";
import type { ModernRevision } from "../../protocol/versions.js";
import type { ServerDescription } from "../server-description.js";
import type { ListenOptions, Subscription, SubscriptionListener } from "../subscription.js";
import type { CallOptions, ClientEra, EraHost } from "./client-era.js";
import { rpcError } from "./detect.js";
import { envelopeFor } from "./envelope.js";
import { Subscriptions } from "./modern-listen.js";
import { ModernRequests } from "./modern-requests.js";
import { DEFAULT_MAX_INPUT_ROUNDS } from "./mrtr.js";
import { ResourceSubscriptions } from "./resource-subscriptions.js";
import { ToolHeaders } from "./tool-headers.js";

/**
 * A server of a modern revision (2026-07-28): no session; every request carries the
 * envelope; input-required results are answered and retried (ModernRequests); change
 * notifications come on subscriptions/listen streams, resources/subscribe is emulated on
 * one of them, and the log level travels in each request's `_meta`.
 */
export class ModernEra implements ClientEra {
  readonly kind = "modern";
  readonly listsExpire = true;
  readonly discover: DiscoverResult;
  private readonly host: EraHost;
  private readonly requests: ModernRequests;
  private readonly subscriptions = new Subscriptions();
  /** resources/subscribe: one listen stream for every subscribed URI. */
  private readonly resourceSubscriptions: ResourceSubscriptions;
  private readonly toolHeaders: ToolHeaders;
  /** server/utilities/logging: sent in `_meta` of every request once set. */
  private logLevel: LogLevel | undefined;

  constructor(host: EraHost, version: ModernRevision, discover: DiscoverResult) {
    this.host = host;
    this.discover = discover;
    this.requests = new ModernRequests(
      {
        connection: host.connection,
        envelope: (v) => envelopeFor(host, v, this.logLevel),
        answer: (method, params, ctx) => host.onRequest(method, params, ctx),
        maxRounds: host.options.maxInputRounds ?? DEFAULT_MAX_INPUT_ROUNDS,
        forced: host.options.protocolVersion,
      },
      version,
    );
    this.requests.noteServerInfo(discover);
    this.resourceSubscriptions = new ResourceSubscriptions((filter) => this.listen(filter, () => undefined));
    this.toolHeaders = new ToolHeaders((warning) => host.options.onError?.(warning));
    host.connection.transport.setProtocolVersion?.(version);
  }

  get protocolVersion(): ModernRevision {
    return this.requests.version;
  }
  get rules(): RevisionRules {
    return revisionRules(this.requests.version);
  }
  get serverInfo(): Implementation | undefined {
    return this.requests.serverInfo;
  }
  get serverCapabilities(): ServerCapabilities {
    return this.discover.capabilities;
  }
  get instructions(): string | undefined {
    return this.discover.instructions;
  }
  get capabilities(): ClientCapabilities {
    return this.host.capabilities(true);
  }

  describe(): ServerDescription {
    const description: ServerDescription = {
      era: "modern",
      protocolVersion: this.protocolVersion,
      capabilities: this.discover.capabilities,
      // serverInfo is a SHOULD (server/discover §DiscoverResult); the getter says undefined.
      serverInfo: this.serverInfo ?? { name: "", version: "" },
      discover: this.discover,
    };
    if (this.discover.instructions !== undefined) description.instructions = this.discover.instructions;
    return description;
  }

  request<R extends object = JsonObject>(
    method: string,
    params: object | undefined,
    options?: CallOptions,
  ): Promise<R> {
    return this.requests.request<R>(method, params, options);
  }

  /**
   * On Streamable HTTP, the parameters a tool's schema marks with x-mcp-header also go in
   * `Mcp-Param-*` headers; a HeaderMismatch (-32020) re-reads the tool list and retries
   * once (transports §Client Behavior).
   */
  async callTool(name: string, args: Record<string, unknown>, options?: CallOptions): Promise<CallToolResult> {
    const params = { name, arguments: args };
    const call = (opts?: CallOptions) => this.request<CallToolResult>("tools/call", params, opts);
    if (!this.host.http) return call(options);
    const tools = this.host.tools;
    // The schema says which arguments go in headers: list the tools once if this one is new.
    // A tool added since then comes back as HeaderMismatch, handled below.
    // A list that fails leaves the call without headers: the server's HeaderMismatch, or the call's own error, says more.
    if (!this.toolHeaders.knows(name) && !this.toolHeaders.listedAll) await tools.get().catch(() => undefined);
    try {
      return await call(this.withParamHeaders(name, args, options));
    } catch (error) {
      if (rpcError(error)?.code !== ErrorCode.HeaderMismatch) throw error;
      tools.invalidate();
      await tools.get();
      return call(this.withParamHeaders(name, args, options));
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
  acceptTools(tools: Tool[], whole: boolean): Tool[] {
    if (!this.host.http) return tools;
    const accepted = this.toolHeaders.accept(tools);
    // A tool missing from a whole list is not worth listing again for.
    if (whole) this.toolHeaders.listedAll = true;
    return accepted;
  }

  /** basic/patterns/subscriptions: a subscriptions/listen stream, acknowledged before this resolves. */
  listen(filter: SubscriptionFilter, listener: SubscriptionListener, options?: ListenOptions): Promise<Subscription> {
    const ackTimeout = options?.timeoutMs ?? this.host.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    return this.subscriptions.listen(
      filter,
      listener,
      // Long-lived: no request timeout; closing aborts it, which closes the stream.
      // Task status notifications need the Tasks extension declared on the listen request.
      (params, signal) =>
        this.requests.sendOnce("subscriptions/listen", params, {
          signal,
          timeoutMs: 0,
          ...("taskIds" in filter && { asTask: {} }),
        }),
      ackTimeout,
      options,
    );
  }

  /** 2026-07-28 has no resources/subscribe: one listen stream carries every subscribed URI. */
  subscribe(uri: string): Promise<void> {
    return this.resourceSubscriptions.add(uri);
  }

  unsubscribe(uri: string): Promise<void> {
    return this.resourceSubscriptions.remove(uri);
  }

  /** 2026-07-28 removed logging/setLevel: the level goes in the `_meta` of every later request. */
  async setLogLevel(level: LogLevel): Promise<void> {
    this.logLevel = level;
  }

  /** 2026-07-28 has no ping: server/discover answers instead. */
  async ping(options?: CallOptions): Promise<void> {
    await this.request("server/discover", undefined, options);
  }

  route(notification: JsonRpcNotification): boolean {
    const id = (notification.params?._meta as Record<string, unknown> | undefined)?.[META.subscriptionId];
    // An update the stream replacing this one delivers too.
    if (notification.method === "notifications/resources/updated" && this.resourceSubscriptions.superseded(id))
      return false;
    this.subscriptions.route(notification);
    return true;
  }

  /** A modern server asks for roots when it needs them (no roots/list_changed). */
  rootsChanged(): void {}

  closed(): void {}
}
