import type { ConnectionOptions } from "../../../connection/connection-options.js";
import type { InboundRequest } from "../../../connection/inbound-request.js";
import { runChain } from "../../../connection/middleware-chain.js";
import { ErrorCode, McpError } from "../../../jsonrpc/errors.js";
import type { JsonObject, JsonRpcNotification } from "../../../jsonrpc/types.js";
import type { MessageInfo } from "../../../transports/transport.js";
import { dispatch } from "../../dispatch/table.js";
import { inboundNotification, inboundRequest } from "../../middleware/message-context.js";
import type { SessionOptions } from "../../server-session.js";
import type { LegacySession, SessionHost } from "./session.js";

/**
 * The legacy era adapter (2024-11-05 … 2025-11-25) as its connection sees it: the
 * client's requests and notifications, through the server's middleware, to the handshake
 * or the method table under the negotiated revision's rules. Prototype methods rather than
 * closures, since an idle HTTP server may hold tens of thousands of sessions.
 */
export class LegacyInbound implements ConnectionOptions {
  constructor(
    private readonly server: SessionHost,
    readonly session: LegacySession,
    private readonly options: SessionOptions,
  ) {}

  get timeoutMs(): number | undefined {
    return this.options.requestTimeoutMs ?? this.server.options.requestTimeoutMs;
  }

  get requestIdPrefix(): string | undefined {
    return this.options.requestIdPrefix;
  }

  batchesAllowed(): boolean {
    return this.session.rules.batches;
  }

  unreadableIdNull(): boolean {
    return this.session.rules.unreadableIdNull;
  }

  onError(error: unknown): void {
    this.server.onError(error);
  }

  onClose(): void {
    this.session.closedByTransport();
  }

  onRequest(inbound: InboundRequest): object | Promise<object> {
    if (inbound.info?.auth !== undefined) this.session.auth = inbound.info.auth;
    const chain = this.server.middleware;
    if (chain === undefined) return this.handle(inbound, inbound.params);
    const ctx = inboundRequest(this.session.origin, inbound);
    return runChain(chain, ctx, (c) => this.handle(inbound, c.params));
  }

  private handle(inbound: InboundRequest, params: JsonObject | undefined): object | Promise<object> {
    const { session } = this;
    if (inbound.method === "initialize") return session.initialize(params ?? {});
    // basic/lifecycle §Initialization: nothing but ping before initialize.
    if (session.revision === undefined && inbound.method !== "ping") {
      throw new McpError(
        ErrorCode.InvalidRequest,
        `Received ${inbound.method} before initialize: the client must send initialize first`,
      );
    }
    return dispatch(this.server, session, inbound, params);
  }

  onNotification(notification: JsonRpcNotification, info: MessageInfo | undefined): void {
    const chain = this.server.middleware;
    if (chain === undefined) {
      this.handleNotification(notification);
      return;
    }
    const ctx = inboundNotification(this.session.origin, notification, info);
    runChain(chain, ctx, (c) => {
      this.handleNotification(c.params === notification.params ? notification : { ...notification, params: c.params });
      return {};
    }).catch((error: unknown) => this.server.onError(error));
  }

  private handleNotification(notification: JsonRpcNotification): void {
    const { session } = this;
    if (notification.method === "notifications/initialized") {
      session.initialized();
      this.server.options.onSession?.(session);
      return;
    }
    this.server.options.onNotification?.(notification, session);
    this.options.onNotification?.(notification, session);
  }
}
