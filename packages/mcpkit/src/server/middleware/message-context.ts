import type { InboundRequest } from "../../connection/inbound-request.js";
import type { Middleware, MiddlewareContext } from "../../connection/middleware-chain.js";
import { type RequestKey, RequestValues } from "../../connection/request-values.js";
import type { JsonObject, JsonRpcNotification, RequestId } from "../../jsonrpc/types.js";
import type { Implementation } from "../../protocol/types/common.js";
import type { HeaderReader, MessageInfo, TransportBinding } from "../../transports/transport.js";
import type { ServerSession } from "../server-session.js";

/**
 * What a server middleware sees of one message: a request or notification from a client
 * ("inbound"), or a request this server sends the client ("outbound": sampling,
 * elicitation, roots), asked by a handler or on a session.
 */
export interface ServerMiddlewareContext extends MiddlewareContext {
  readonly side: "server";
  /** "legacy" (the initialize handshake) or "modern" (2026-07-28): known for every message. */
  readonly era: "legacy" | "modern";
  /** The legacy session the message travels on; undefined for 2026-07-28 requests. */
  readonly session: ServerSession | undefined;
  /** The client's clientInfo (from the handshake, or from the request's `_meta`). */
  readonly client: Implementation | undefined;
  /**
   * Inbound: aborted when the client cancels the request (made on first use); undefined for
   * notifications. Outbound: the signal of the request being served, when there is one.
   */
  readonly signal: AbortSignal | undefined;
  /** HTTP request headers (lower-case names), on HTTP transports; outbound, those of the request being served. */
  readonly headers: HeaderReader | undefined;
  /** The client's network address, on HTTP transports. */
  readonly remoteAddress: string | undefined;
  /** This server's name and version. */
  readonly server: Implementation;
  /** The binding of the connection the message came on, when known (legacy sessions). */
  readonly transport: TransportBinding | undefined;
  /**
   * A value set for this request by a middleware before this one (see `requestKey`);
   * outbound, those of the request being served.
   */
  get<T>(key: RequestKey<T>): T | undefined;
  /**
   * Hands a typed value to the middleware after this one and to the request's handlers,
   * which read it with `ctx.get(key)`. Values live as long as the request.
   */
  set<T>(key: RequestKey<T>, value: T): void;
}

/** A server middleware: `server.use(mw)` or `ServerOptions.middleware`. */
export type ServerMiddleware = Middleware<ServerMiddlewareContext>;

/**
 * Where a message travels, as its era adapter knows it: the era, the revision, the session
 * (legacy) and the client. A legacy session keeps one for all its messages.
 */
export type MessageOrigin = Pick<
  ServerMiddlewareContext,
  "era" | "revision" | "sessionId" | "session" | "client" | "server" | "transport"
>;

/** What a message carries beyond its origin: who sent it and with what. */
type Info = { auth?: unknown; headers?: HeaderReader; remoteAddress?: string } | undefined;

/**
 * Made only when middleware is installed. A request being served lends its values (and,
 * inbound, its signal): `serving`; anything else keeps values of its own, made on first use.
 */
class ServerMessage implements ServerMiddlewareContext {
  readonly side = "server";
  params: JsonObject | undefined;
  readonly principal: unknown;
  readonly headers: HeaderReader | undefined;
  readonly remoteAddress: string | undefined;
  readonly era: "legacy" | "modern";
  readonly revision: string | undefined;
  readonly sessionId: string | undefined;
  readonly session: ServerSession | undefined;
  readonly client: Implementation | undefined;
  readonly server: Implementation;
  readonly transport: TransportBinding | undefined;
  private ownValues: RequestValues | undefined;

  constructor(
    origin: MessageOrigin,
    readonly kind: "request" | "notification",
    readonly direction: "inbound" | "outbound",
    readonly method: string,
    params: JsonObject | undefined,
    readonly id: RequestId | undefined,
    info: Info,
    private readonly serving: InboundRequest | undefined,
    private readonly signalOf: (() => AbortSignal | undefined) | undefined,
  ) {
    this.params = params;
    this.principal = info?.auth;
    this.headers = info?.headers;
    this.remoteAddress = info?.remoteAddress;
    this.era = origin.era;
    this.revision = origin.revision;
    this.sessionId = origin.sessionId;
    this.session = origin.session;
    this.client = origin.client;
    this.server = origin.server;
    this.transport = origin.transport;
  }

  /** Outbound: the served request's, as its sender gave it; inbound: the request's own (made on first use). */
  get signal(): AbortSignal | undefined {
    return this.signalOf ? this.signalOf() : this.serving?.signal;
  }

  get<T>(key: RequestKey<T>): T | undefined {
    return this.values().get(key);
  }

  set<T>(key: RequestKey<T>, value: T): void {
    this.values().set(key, value);
  }

  /** The values of the request being served, or this message's own. */
  private values(): RequestValues {
    const serving = this.serving;
    if (serving) {
      serving.values ??= new RequestValues();
      return serving.values;
    }
    this.ownValues ??= new RequestValues();
    return this.ownValues;
  }
}

/** The one builder of what middleware sees of a request from the client, in every era. */
export function inboundRequest(origin: MessageOrigin, inbound: InboundRequest): ServerMiddlewareContext {
  const { method, params, id, info } = inbound;
  return new ServerMessage(origin, "request", "inbound", method, params, id, info, inbound, undefined);
}

/** A notification from the client (legacy sessions). */
export function inboundNotification(
  origin: MessageOrigin,
  notification: JsonRpcNotification,
  info: MessageInfo | undefined,
): ServerMiddlewareContext {
  const { method, params } = notification;
  return new ServerMessage(origin, "notification", "inbound", method, params, undefined, info, undefined, undefined);
}

/**
 * A request this server sends the client (sampling, elicitation, roots): `info`, `signal`
 * and the values are those of the request being served, when there is one.
 */
export function outboundRequest(
  origin: MessageOrigin,
  method: string,
  params: JsonObject,
  serving: { info: Info; signal: () => AbortSignal | undefined; inbound?: InboundRequest },
): ServerMiddlewareContext {
  const { info, signal, inbound } = serving;
  return new ServerMessage(origin, "request", "outbound", method, params, undefined, info, inbound, signal);
}
