import type { MessageInfo } from "../../transport.js";
import type { Stream } from "./stream.js";

/** What closes the HTTP connection carrying a stream, its stream kept (the session transport). */
export interface ConnectionCloser {
  closeConnection(stream: Stream, retryMs?: number): void;
}

/**
 * What a request on a session with an event store is told about itself: the request's
 * headers, principal and address, and how to close the connection carrying its answer.
 * A prototype method, not a closure per request.
 */
export class StreamInfo implements MessageInfo {
  readonly headers: MessageInfo["headers"];
  readonly auth: unknown;
  readonly remoteAddress: string | undefined;

  constructor(
    info: MessageInfo,
    private readonly closer: ConnectionCloser,
    private readonly stream: Stream,
  ) {
    this.headers = info.headers;
    this.auth = info.auth;
    this.remoteAddress = info.remoteAddress;
  }

  closeStream(retryMs?: number): void {
    this.closer.closeConnection(this.stream, retryMs);
  }
}
