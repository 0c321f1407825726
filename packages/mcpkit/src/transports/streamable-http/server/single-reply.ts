import type { JsonRpcMessage, JsonRpcResponse, RequestId } from "../../../jsonrpc/types.js";
import { type HttpReply, jsonReply } from "../../http/exchange.js";
import { formatSse, SseConnection } from "../../http/sse.js";
import { type HttpAnswer, sseReply } from "./stream.js";

export interface SingleReplyOptions {
  /** The ids of the requests in the POST body, each owed one response. */
  owed: readonly RequestId[];
  /** Whether the body was a batch: the responses then go out as one array. */
  batch: boolean;
  /** The status and headers of a JSON answer. */
  answer: (message: JsonRpcMessage) => HttpAnswer;
  keepAliveMs: number;
  /** The client went away before every response was sent (streamable-http §Cancellation). */
  onAbandoned: () => void;
}

/**
 * The answer to one POST served without a session (a modern request, or a legacy one on a
 * server without sessions): one JSON body when the responses come before anything else,
 * else an SSE stream carrying the notifications as they come and the responses last
 * (transports §Sending Messages). Nothing is kept for resumption: there is no session to
 * resume in.
 */
export class SingleReply {
  readonly reply: Promise<HttpReply>;
  private resolve!: (reply: HttpReply) => void;
  private readonly owed: Set<RequestId>;
  private readonly responses: JsonRpcResponse[] = [];
  private readonly options: SingleReplyOptions;
  private connection: SseConnection | undefined;
  private done = false;

  constructor(options: SingleReplyOptions) {
    this.options = options;
    this.owed = new Set(options.owed);
    this.reply = new Promise((resolve) => {
      this.resolve = resolve;
    });
  }

  /** True once every response went out or the client left. */
  get finished(): boolean {
    return this.done;
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
    if (id !== null && id !== undefined) this.owed.delete(id);
    this.responses.push(response);
    if (this.owed.size > 0) return;
    this.done = true;
    const body = this.options.batch ? this.responses : response;
    const text = JSON.stringify(body);
    if (this.connection) {
      this.connection.write(formatSse({ data: text }));
      this.connection.close();
      return;
    }
    const answer = this.options.batch ? { status: 200 } : this.options.answer(response);
    this.resolve(jsonReply(answer.status, text, answer.headers));
  }

  /** The HTTP request ended before the answer began. */
  aborted(): void {
    if (this.done || this.connection) return;
    this.abandon();
  }

  private stream(): SseConnection {
    if (!this.connection) {
      const connection = new SseConnection(() => {
        if (!this.done) this.abandon();
      }, this.options.keepAliveMs);
      this.connection = connection;
      this.resolve(sseReply(connection));
    }
    return this.connection;
  }

  private abandon(): void {
    this.done = true;
    this.resolve({ status: 204, headers: {} }); // nobody reads it: the client is gone
    this.options.onAbandoned();
  }
}
