import type { JsonRpcErrorObject } from "../jsonrpc/types.js";
import type { MessageInfo, TransportSink } from "../transports/transport.js";

/** What a connection takes from its transport: a decoded frame, an undecodable one, the close. */
export interface SinkTarget {
  receive(value: unknown, info: MessageInfo | undefined): void;
  refuseUnreadable(error: JsonRpcErrorObject): void;
  transportClosed(reason?: Error): void;
}

/** What the transport calls: one small object instead of three closures per connection. */
export class ConnectionSink implements TransportSink {
  constructor(private readonly connection: SinkTarget) {}

  message(value: unknown, info?: MessageInfo): void {
    this.connection.receive(value, info);
  }

  invalid(error: JsonRpcErrorObject): void {
    this.connection.refuseUnreadable(error);
  }

  close(reason?: Error): void {
    this.connection.transportClosed(reason);
  }
}
