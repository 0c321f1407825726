import type { JsonObject, RequestId } from "../../jsonrpc/types.js";
import type { Implementation } from "../../protocol/types/common.js";
import type { Middleware, MiddlewareContext } from "../../session/middleware.js";
import type { HeaderReader, TransportBinding } from "../../transports/transport.js";
import type { ServerSession } from "../session.js";

/**
 * What a server middleware sees of one message: a request or notification from a client
 * ("inbound"), or a request this server sends the client ("outbound": sampling,
 * elicitation, roots), asked by a handler or on a session.
 */
export interface ServerMiddlewareContext extends MiddlewareContext {
  readonly side: "server";
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
}

/** A server middleware: `server.use(mw)` or `ServerOptions.middleware`. */
export type ServerMiddleware = Middleware<ServerMiddlewareContext>;

/** The facts a message's era adapter knows, gathered into one context. */
export interface MessageFacts {
  kind: "request" | "notification";
  /** Default "inbound". */
  direction?: "inbound" | "outbound";
  method: string;
  params: JsonObject | undefined;
  id: RequestId | undefined;
  info: { auth?: unknown; headers?: HeaderReader; remoteAddress?: string } | undefined;
  era: "legacy" | "modern";
  revision: string | undefined;
  sessionId: string | undefined;
  session: ServerSession | undefined;
  client: Implementation | undefined;
  server: Implementation;
  transport?: TransportBinding;
  /** How to get the request's signal, when it is a request. */
  signal?: () => AbortSignal | undefined;
}

/** Made only when middleware is installed. */
class ServerMessage implements ServerMiddlewareContext {
  readonly side = "server";
  readonly direction: "inbound" | "outbound";
  readonly kind: "request" | "notification";
  readonly method: string;
  params: JsonObject | undefined;
  readonly id: RequestId | undefined;
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
  private readonly signalOf: (() => AbortSignal | undefined) | undefined;

  constructor(facts: MessageFacts) {
    this.direction = facts.direction ?? "inbound";
    this.kind = facts.kind;
    this.method = facts.method;
    this.params = facts.params;
    this.id = facts.id;
    this.principal = facts.info?.auth;
    this.headers = facts.info?.headers;
    this.remoteAddress = facts.info?.remoteAddress;
    this.era = facts.era;
    this.revision = facts.revision;
    this.sessionId = facts.sessionId;
    this.session = facts.session;
    this.client = facts.client;
    this.server = facts.server;
    this.transport = facts.transport;
    this.signalOf = facts.signal;
  }

  get signal(): AbortSignal | undefined {
    return this.signalOf?.();
  }
}

export function serverMessage(facts: MessageFacts): ServerMiddlewareContext {
  return new ServerMessage(facts);
}
