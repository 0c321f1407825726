import type { JsonRpcMessage, RequestId } from "../../../jsonrpc/types.js";
import { isResponse, type Stream } from "./stream.js";

/**
 * The streams of one session and which request each carries (transports §Multiple
 * Connections: a message goes to the stream of the request it answers or relates to).
 * Nothing is allocated for an idle session (an HTTP server may hold tens of thousands),
 * nor for the usual busy one: a single stream and a single request owed are kept in
 * fields, and sets or maps are made only once there are two.
 */
export class StreamTable {
  private only: Stream | undefined;
  private more: Set<Stream> | undefined;
  private oneRequest: RequestId | undefined;
  private oneCarrier: Stream | undefined;
  private byRequest: Map<RequestId, Stream> | undefined;
  private finishedOrder: Stream[] | undefined;

  add(stream: Stream, requestIds: readonly RequestId[]): void {
    if (this.more) this.more.add(stream);
    else if (this.only === undefined) this.only = stream;
    else {
      this.more = new Set([this.only, stream]);
      this.only = undefined;
    }
    for (const id of requestIds) this.carry(id, stream);
  }

  private carry(id: RequestId, stream: Stream): void {
    if (this.byRequest) this.byRequest.set(id, stream);
    else if (this.oneCarrier === undefined) {
      this.oneRequest = id;
      this.oneCarrier = stream;
    } else {
      this.byRequest = new Map([
        [this.oneRequest as RequestId, this.oneCarrier],
        [id, stream],
      ]);
      this.oneRequest = undefined;
      this.oneCarrier = undefined;
    }
  }

  /** The stream of this id (resumption: rare, and a session holds few streams). */
  get(streamId: string): Stream | undefined {
    for (const stream of this.all()) if (stream.named && stream.id === streamId) return stream;
    return undefined;
  }

  /** The stream of a request still owed an answer. */
  carrying(requestId: RequestId): Stream | undefined {
    if (this.byRequest) return this.byRequest.get(requestId);
    return this.oneRequest === requestId ? this.oneCarrier : undefined;
  }

  all(): Iterable<Stream> {
    return this.more ?? (this.only ? [this.only] : []);
  }

  /** True while a request is owed an answer. */
  get answering(): boolean {
    return this.byRequest !== undefined || this.oneCarrier !== undefined;
  }

  /** True while a request's stream has not finished. */
  get unsettled(): boolean {
    for (const stream of this.all()) if (!stream.standalone && !stream.finished) return true;
    return false;
  }

  /** The stream for a message the session sends: `capture` for answers without a readable id, `standalone` for the rest. */
  route(
    message: JsonRpcMessage | JsonRpcMessage[],
    relatedRequestId: RequestId | undefined,
    capture: Stream | undefined,
    standalone: Stream | undefined,
  ): Stream | undefined {
    if (Array.isArray(message)) {
      for (const m of message) {
        const stream = this.byId("id" in m ? m.id : undefined);
        if (stream) return stream;
      }
      return capture;
    }
    if (isResponse(message)) return this.byId("id" in message ? message.id : undefined) ?? capture;
    return this.byId(relatedRequestId) ?? standalone;
  }

  private byId(id: RequestId | null | undefined): Stream | undefined {
    return id === undefined || id === null ? undefined : this.carrying(id);
  }

  /** For an answer on `stream`: the request it answers is no longer owed (true); anything else: false. */
  settle(stream: Stream, message: JsonRpcMessage): boolean {
    if (!isResponse(message)) return false;
    const id = "id" in message ? message.id : undefined;
    if (id === undefined || id === null) {
      // An answer to the whole POST (an unreadable or refused body) settles it.
      for (const owed of stream.releaseAll()) this.answered(owed);
    } else if (stream.release(id)) {
      this.answered(id);
    }
    return true;
  }

  /** The request was answered (or will not be): its stream no longer carries it. */
  answered(requestId: RequestId): void {
    if (this.byRequest) {
      this.byRequest.delete(requestId);
      if (this.byRequest.size === 0) this.byRequest = undefined;
    } else if (this.oneCarrier !== undefined && this.oneRequest === requestId) {
      this.oneRequest = undefined;
      this.oneCarrier = undefined;
    }
  }

  drop(stream: Stream): void {
    if (this.only === stream) this.only = undefined;
    else if (this.more?.delete(stream) && this.more.size === 0) this.more = undefined;
  }

  /**
   * Keeps a finished stream resumable (a client may have missed its last event), the
   * newest `max` of them; returns one that no longer fits, now dropped.
   */
  keepFinished(stream: Stream, max: number): Stream | undefined {
    this.finishedOrder ??= [];
    this.finishedOrder.push(stream);
    if (this.finishedOrder.length <= max) return undefined;
    const oldest = this.finishedOrder.shift() as Stream;
    this.drop(oldest);
    return oldest;
  }

  clear(): void {
    this.only = undefined;
    this.more = undefined;
    this.oneRequest = undefined;
    this.oneCarrier = undefined;
    this.byRequest = undefined;
    this.finishedOrder = undefined;
  }
}
