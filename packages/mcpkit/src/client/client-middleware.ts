import type { RequestOptions } from "../connection/connection-options.js";
import { type Middleware, type MiddlewareContext, runChain } from "../connection/middleware-chain.js";
import { asJson, fromJson } from "../jsonrpc/message.js";
import type { JsonObject, JsonRpcNotification, RequestId } from "../jsonrpc/types.js";
import type { Implementation } from "../protocol/types/common.js";
import type { TransportBinding } from "../transports/transport.js";

/** A call's options: the connection's, plus extra `_meta` keys (the same shape as CallOptions). */
type CallOptions = RequestOptions & { meta?: Record<string, unknown> };

/** What a client middleware sees of one call to the server, or one message from it. */
export interface ClientMiddlewareContext extends MiddlewareContext {
  readonly side: "client";
  /**
   * The call's options ("outbound" requests): replace them to add `headers` (sent as HTTP
   * headers on Streamable HTTP) or `meta` (extra `_meta` keys, e.g. trace context).
   */
  options: CallOptions | undefined;
  /** The server's name and version, once known. */
  readonly server: Implementation | undefined;
  /** The binding of the transport the client is connected over. */
  readonly transport: TransportBinding | undefined;
  /** The connection the message belongs to. */
  readonly session: ClientSession | undefined;
  /** The call's signal (outbound), or the one aborted when the server cancels its request (inbound). */
  readonly signal: AbortSignal | undefined;
}

/** One connection of the client, as middleware sees it: when it opened, and when it closes. */
export interface ClientSession {
  /** `performance.now()` when connect() began. */
  readonly openedAt: number;
  /** Resolves when the connection closes: with the failure that closed it, if one did. */
  readonly closed: Promise<Error | undefined>;
}

/** A client's record of one connection. */
export function openSession(): ClientSession & { end(reason?: Error): void } {
  let end!: (reason?: Error) => void;
  const closed = new Promise<Error | undefined>((resolve) => {
    end = resolve;
  });
  return { openedAt: performance.now(), closed, end };
}

/** A client middleware: `client.use(mw)` or `ClientOptions.middleware`. */
export type ClientMiddleware = Middleware<ClientMiddlewareContext>;

/** What the Client knows when a message passes. */
export interface ClientFacts {
  era: "legacy" | "modern" | undefined;
  revision: string | undefined;
  sessionId: string | undefined;
  server: Implementation | undefined;
  transport: TransportBinding | undefined;
  session: ClientSession | undefined;
}

/** Made only when middleware is installed. */
class ClientMessage implements ClientMiddlewareContext {
  readonly side = "client";
  readonly principal = undefined;
  readonly era: "legacy" | "modern" | undefined;
  readonly revision: string | undefined;
  readonly sessionId: string | undefined;
  readonly server: Implementation | undefined;
  readonly transport: TransportBinding | undefined;
  readonly session: ClientSession | undefined;

  constructor(
    readonly kind: "request" | "notification",
    readonly direction: "inbound" | "outbound",
    readonly method: string,
    public params: JsonObject | undefined,
    readonly id: RequestId | undefined,
    public options: CallOptions | undefined,
    private readonly signalOf: (() => AbortSignal) | undefined,
    facts: ClientFacts,
  ) {
    this.era = facts.era;
    this.revision = facts.revision;
    this.sessionId = facts.sessionId;
    this.server = facts.server;
    this.transport = facts.transport;
    this.session = facts.session;
  }

  get signal(): AbortSignal | undefined {
    return this.signalOf ? this.signalOf() : this.options?.signal;
  }
}

export function clientMessage(
  kind: "request" | "notification",
  direction: "inbound" | "outbound",
  method: string,
  params: JsonObject | undefined,
  id: RequestId | undefined,
  options: CallOptions | undefined,
  signal: (() => AbortSignal) | undefined,
  facts: ClientFacts,
): ClientMiddlewareContext {
  return new ClientMessage(kind, direction, method, params, id, options, signal, facts);
}

/**
 * The middleware a Client installed, and how each kind of message passes through it. The
 * list is replaced, never changed in place, so a message already on its way keeps its chain.
 */
export class ClientChain {
  private list: readonly ClientMiddleware[];

  constructor(
    list: readonly ClientMiddleware[],
    private readonly facts: () => ClientFacts,
  ) {
    this.list = list;
  }

  add(more: readonly ClientMiddleware[]): void {
    this.list = [...this.list, ...more];
  }

  /**
   * A call to the server; `terminal` sends it. What the middleware hands back is read as
   * the method's result type `R`, as an answer from the server is.
   */
  outbound<R extends object = JsonObject>(
    method: string,
    params: object | undefined,
    options: CallOptions | undefined,
    terminal: (ctx: ClientMiddlewareContext) => Promise<object>,
  ): Promise<R> {
    const ctx = clientMessage(
      "request",
      "outbound",
      method,
      params && asJson(params),
      undefined,
      options,
      undefined,
      this.facts(),
    );
    return runChain(this.list, ctx, terminal).then(fromJson<R>);
  }

  /** A request of the server (or an input request of a modern one); `terminal` answers it. */
  inbound(
    method: string,
    params: JsonObject,
    request: { requestId?: RequestId; inputKey?: string; signal: AbortSignal },
    terminal: (ctx: ClientMiddlewareContext) => Promise<JsonObject>,
  ): Promise<JsonObject> {
    // An input request of a multi round-trip request has a key, not a JSON-RPC id.
    const id = request.inputKey === undefined ? request.requestId : undefined;
    const ctx = clientMessage("request", "inbound", method, params, id, undefined, () => request.signal, this.facts());
    return runChain(this.list, ctx, terminal);
  }

  /** A notification from the server; `deliver` hands on what the middleware let through. */
  notification(notification: JsonRpcNotification, deliver: (n: JsonRpcNotification) => void): Promise<unknown> {
    const { method, params } = notification;
    const ctx = clientMessage("notification", "inbound", method, params, undefined, undefined, undefined, this.facts());
    return runChain(this.list, ctx, (c) => {
      deliver(c.params === params ? notification : { ...notification, params: c.params });
      return Promise.resolve({});
    });
  }
}
