import type { Transport, TransportSink } from "mcpkit";

/**
 * A transport that hands every message through it, both ways, to `record` (the protocol
 * log) before passing it on unchanged.
 */
export function tapTransport(transport: Transport, record: (dir: "in" | "out", value: unknown) => void): Transport {
  return {
    get binding() {
      return transport.binding;
    },
    get sessionId() {
      return transport.sessionId;
    },
    start: (sink: TransportSink) =>
      transport.start({
        message: (value, info) => {
          record("in", value);
          sink.message(value, info);
        },
        invalid: (error) => sink.invalid(error),
        close: (reason) => sink.close(reason),
      }),
    send: (message, options) => {
      record("out", message);
      transport.send(message, options);
    },
    ...(transport.unanswered && { unanswered: (id) => transport.unanswered?.(id) }),
    ...(transport.setProtocolVersion && { setProtocolVersion: (v) => transport.setProtocolVersion?.(v) }),
    close: () => transport.close(),
  };
}
