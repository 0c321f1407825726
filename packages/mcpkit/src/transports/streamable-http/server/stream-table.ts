import type { JsonRpcMessage, RequestId } from "../../../jsonrpc/types.js";
import { isResponse, type Stream } from "./stream.js";

/**
 * The streams of one session and which request each carries (transports §Multiple
 * Connections: a message goes to the stream of the request it answers or relates to).
 * The collections exist only while they hold something: an idle session keeps none (an
 * HTTP server may hold tens of thousands of sessions).
 */
export class StreamTable {
  private streams: Map<string, Stream> | undefined;
  private byRequest: Map<RequestId, Stream> | undefined;
  private finishedOrder: string[] | undefined;

  add(stream: Stream, requestIds: readonly RequestId[]): void {
    this.streams ??= new Map();
    this.streams.set(stream.id, stream);
    if (requestIds.length === 0) return;
    this.byRequest ??= new Map();
    for (const id of requestIds) this.byRequest.set(id, stream);
  }

  get(streamId: string): Stream | undefined {
    return this.streams?.get(streamId);
  }

  /** The stream of a request still owed an answer. */
  carrying(requestId: RequestId): Stream | undefined {
    return this.byRequest?.get(requestId);
  }

  all(): Iterable<Stream> {
    return this.streams?.values() ?? [];
  }

  /** True while a request is owed an answer. */
  get answering(): boolean {
    return this.byRequest !== undefined;
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
    const byId = (id: RequestId | null | undefined) =>
      id === undefined || id === null ? undefined : this.carrying(id);
    if (Array.isArray(message)) {
      for (const m of message) {
        const stream = byId("id" in m ? m.id : undefined);
        if (stream) return stream;
      }
      return capture;
    }
    if (isResponse(message)) return byId("id" in message ? message.id : undefined) ?? capture;
    return byId(relatedRequestId) ?? standalone;
  }

  /** The request was answered (or will not be): its stream no longer carries it. */
  answered(requestId: RequestId): void {
    this.byRequest?.delete(requestId);
    if (this.byRequest?.size === 0) this.byRequest = undefined;
  }

  drop(streamId: string): void {
    this.streams?.delete(streamId);
    if (this.streams?.size === 0) this.streams = undefined;
  }

  /**
   * Keeps a finished stream resumable (a client may have missed its last event), the
   * newest `max` of them; returns the id of one that no longer fits, now dropped.
   */
  keepFinished(streamId: string, max: number): string | undefined {
    this.finishedOrder ??= [];
    this.finishedOrder.push(streamId);
    if (this.finishedOrder.length <= max) return undefined;
    const oldest = this.finishedOrder.shift() as string;
    this.drop(oldest);
    return oldest;
  }

  clear(): void {
    this.streams = undefined;
    this.byRequest = undefined;
    this.finishedOrder = undefined;
  }
}
