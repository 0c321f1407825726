import type { JsonRpcMessage } from "../../jsonrpc/types.js";
import type { SendOptions, Transport, TransportSink } from "../../transports/transport.js";

export interface Taps {
  /** Each message the server sent, as the transport decoded it (a batch's each on its own). */
  received?(message: unknown): void;
  /** Each message sent to the server. */
  sent?(message: JsonRpcMessage): void;
  /** Called once the transport started (a command's process exists). */
  started?(): void;
}

/**
 * The same transport, with every message both ways shown to `taps` first: what a runner
 * needs to see what arrived during a request (progress included, which the connection
 * consumes) without changing a byte of it.
 */
export function tapTransport(inner: Transport, taps: Taps): Transport {
  const each = (value: unknown, tap: (message: never) => void) => {
    for (const message of Array.isArray(value) ? value : [value]) tap(message as never);
  };
  return {
    get binding() {
      return inner.binding;
    },
    get sessionId() {
      return inner.sessionId;
    },
    async start(sink: TransportSink) {
      await inner.start({
        message(value, info) {
          if (taps.received) each(value, taps.received);
          sink.message(value, info);
        },
        invalid: (error) => sink.invalid(error),
        close: (reason) => sink.close(reason),
      });
      taps.started?.();
    },
    send(message: JsonRpcMessage | JsonRpcMessage[], options?: SendOptions) {
      if (taps.sent) each(message, taps.sent);
      inner.send(message, options);
    },
    ...(inner.unanswered && { unanswered: (id) => inner.unanswered?.(id) }),
    ...(inner.setProtocolVersion && { setProtocolVersion: (v: string) => inner.setProtocolVersion?.(v) }),
    close: () => inner.close(),
  };
}
