import type { RequestId } from "../jsonrpc/types.js";
import type { Transport } from "../transports/transport.js";

/**
 * A transport that remembers the id of the last request written through it. The
 * Connection assigns ids itself and writes a request synchronously inside `request()`, so
 * right after that call `lastId` is the id of the request just made. The client needs it
 * for subscriptions/listen, whose notifications carry that id as their subscription id
 * (basic/patterns/subscriptions §Receiving Notifications).
 */
export interface WatchedTransport extends Transport {
  readonly lastId: RequestId | undefined;
  /** How many requests were written, so a caller can tell whether its own was. */
  readonly sent: number;
}

export function watchRequestIds(inner: Transport): WatchedTransport {
  let lastId: RequestId | undefined;
  let sent = 0;
  return {
    get lastId() {
      return lastId;
    },
    get sent() {
      return sent;
    },
    get sessionId() {
      return inner.sessionId;
    },
    start: (sink) => inner.start(sink),
    close: () => inner.close(),
    send(message, options) {
      if (!Array.isArray(message) && "method" in message && "id" in message) {
        lastId = message.id;
        sent++;
      }
      inner.send(message, options);
    },
    setProtocolVersion: inner.setProtocolVersion && ((version) => inner.setProtocolVersion?.(version)),
  };
}
