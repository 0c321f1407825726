import { errorObjectOf } from "../../connection/error-answer.js";
import type { InboundRequest } from "../../connection/inbound-request.js";
import { failure, notification, success } from "../../jsonrpc/message.js";
import type { JsonRpcResponse } from "../../jsonrpc/types.js";
import type { ServerDefinition } from "../../server/definition.js";
import { type HttpRequest, jsonReply, type MaybeReply } from "../../transports/http/exchange.js";
import { SingleReply, type SingleReplyOptions } from "../../transports/streamable-http/server/single-reply.js";
import type { RunningRequest, RunningRequests } from "./running-requests.js";

/** How an era serves one request: its result at once, a promise of it, or a throw. */
export type ServeOne<A> = (
  server: ServerDefinition,
  inbound: InboundRequest,
  notify: (method: string, params: object) => void,
  arg: A,
) => object | Promise<object>;

/**
 * One request that is the whole POST, served without a session (a modern request, or a
 * legacy one on a server without sessions). When its handler answers at once and sends
 * nothing before, the reply is one JSON body made then: no promise, no stream, no
 * listener. Otherwise its SingleReply carries what comes (SSE for notifications before the
 * result), and the client leaving or the server closing stops the handler.
 */
export class SoloRequest implements RunningRequest {
  private reply: SingleReply | undefined;
  previousRunning: RunningRequest | undefined;
  nextRunning: RunningRequest | undefined;

  constructor(
    private readonly server: ServerDefinition,
    private readonly inbound: InboundRequest,
    private readonly options: SingleReplyOptions,
    /** Why the handler is stopped when the client closes the response stream. */
    private readonly gone: () => Error,
    /** The endpoint's running requests, which the server's close() stops. */
    private readonly running: RunningRequests,
  ) {}

  /** Notifications before the result turn the answer into a stream. */
  private readonly notify = (method: string, params: object): void => {
    this.replier().notify(notification(method, params));
  };

  private replier(): SingleReply {
    this.reply ??= new SingleReply(this.options);
    return this.reply;
  }

  serve<A>(request: HttpRequest, run: ServeOne<A>, arg: A): MaybeReply {
    const { server, inbound } = this;
    let outcome: object | Promise<object>;
    try {
      outcome = run(server, inbound, this.notify, arg);
    } catch (error) {
      return this.answer(failure(inbound.id, errorObjectOf(error, this.reporter())));
    }
    if (!(outcome instanceof Promise)) return this.answer(success(inbound.id, outcome));
    const reply = this.replier();
    // streamable-http §Cancellation: closing the response stream cancels the request.
    reply.onAbandoned = this;
    request.onAbort(reply);
    // The server closing stops the request: a handler that honours its signal answers with why.
    this.running.add(this);
    outcome.then(
      (result) => this.settle(success(inbound.id, result)),
      (error: unknown) => this.settle(failure(inbound.id, errorObjectOf(error, this.reporter()))),
    );
    return reply.reply();
  }

  /** The server is closing (RunningRequest). */
  abandon(reason: unknown): void {
    this.inbound.abandon(reason);
  }

  /** The client closed the response stream before the answer (SingleReply.onAbandoned). */
  abandoned(): void {
    this.inbound.cancel(this.gone());
  }

  /**
   * Where a failed handler is reported: nowhere when its client cancelled the request
   * (closing the stream is the client's choice, not a fault: no stack on the server's stderr).
   */
  private reporter(): ((error: unknown) => void) | undefined {
    return this.inbound.cancelled ? undefined : this.server.onError;
  }

  /** The answer that came later; a failure to send it is reported, never unhandled. */
  private settle(response: JsonRpcResponse): void {
    this.running.remove(this);
    try {
      if (!this.inbound.cancelled) this.reply?.respond(response);
    } catch (error) {
      this.server.onError(error);
    }
  }

  /** Answered while it was dispatched: one JSON body, or the end of the stream it began. */
  private answer(response: JsonRpcResponse): MaybeReply {
    if (!this.reply) {
      const answer = this.options.answer(response);
      return jsonReply(answer.status, JSON.stringify(response), answer.headers);
    }
    this.reply.respond(response);
    return this.reply.reply();
  }
}
