import type { JsonRpcMessage, JsonRpcResponse, RequestId } from "../../../jsonrpc/types.js";
import { type HttpReply, jsonReply } from "../../http/exchange.js";
import { formatSse, SseConnection } from "../../http/sse.js";
import { type HttpAnswer, sseReply } from "./stream.js";

/** What every single reply of an endpoint shares (one object per handler). */
export interface SingleReplyOptions {
  /** The status and headers of a JSON answer. */
  answer: (message: JsonRpcMessage) => HttpAnswer;
  keepAliveMs: number;
}

/**
 * The answer to one POST served without a session (a modern request, or a legacy one on a
 * server without sessions): one JSON body when the responses come before anything else,
 * else an SSE stream carrying the notifications as they come and the responses last
 * (transports §Sending Messages). Nothing is kept for resumption: there is no session to
 * resume in. A POST answered while it was dispatched costs no promise: `reply()` is then
 * the reply itself.
 */
export class SingleReply {
  /**
   * Told when the client went away before every response was sent (streamable-http
   * §Cancellation). Set once the answer is known to come later: before, the client cannot
   * leave unseen.
   */
  onAbandoned: { abandoned(): void } | undefined;
  private readonly many: Set<RequestId> | undefined;
  /** A batch's responses as they come; a single response is sent as it is. */
  private readonly responses: JsonRpcResponse[] | undefined;
  private readonly options: SingleReplyOptions;
  private connection: SseConnection | undefined;
  private done = false;
  private decided: HttpReply | undefined;
  private waiting: ((reply: HttpReply) => void) | undefined;

  /**
   * `batch`: the ids of a batch's requests, each owed one response, which go out together
   * as one array; without it, the POST is one request and its response ends the answer.
   */
  constructor(options: SingleReplyOptions, batch?: readonly RequestId[]) {
    if (batch) {
      this.many = new Set(batch);
      this.responses = [];
    }
    this.options = options;
  }

  /** True once every response went out or the client left. */
  get finished(): boolean {
    return this.done;
  }

  /** The POST's reply: itself when it is known already, else a promise of it. */
  reply(): HttpReply | Promise<HttpReply> {
    const decided = this.decided;
    if (decided) {
      this.decided = undefined;
      return decided;
    }
    return new Promise((resolve) => {
      this.waiting = resolve;
    });
  }

  /** A notification for the client: it turns the answer into a stream. */
  notify(message: JsonRpcMessage): void {
    if (this.done) return;
    this.stream().write(formatSse({ data: JSON.stringify(message) }));
  }

  /** One of the owed responses; the last one ends the answer. */
  respond(response: JsonRpcResponse): void {
    if (this.done) return;
    const id = response.id;
    const responses = this.responses;
    if (responses) {
      if (id !== null && id !== undefined) this.many?.delete(id);
      responses.push(response);
      if ((this.many?.size ?? 0) > 0) return;
    }
    this.done = true;
    const text = JSON.stringify(responses ?? response);
    if (this.connection) {
      this.connection.write(formatSse({ data: text }));
      this.connection.close();
      return;
    }
    const answer = responses ? undefined : this.options.answer(response);
    this.decide(jsonReply(answer?.status ?? 200, text, answer?.headers));
  }

  /** The HTTP request ended before the answer began. */
  aborted(): void {
    if (this.done || this.connection) return;
    this.abandon();
  }

  private decide(reply: HttpReply): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    if (waiting) waiting(reply);
    else this.decided = reply;
  }

  private stream(): SseConnection {
    if (!this.connection) {
      const connection = new SseConnection(() => {
        if (!this.done) this.abandon();
      }, this.options.keepAliveMs);
      this.connection = connection;
      this.decide(sseReply(connection));
    }
    return this.connection;
  }

  private abandon(): void {
    this.done = true;
    this.decide({ status: 204, headers: {} }); // nobody reads it: the client is gone
    this.onAbandoned?.abandoned();
  }
}
