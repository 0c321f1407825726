import type { Transport } from "mcpkit";
import type { JsonRpcNotification } from "mcpkit/jsonrpc";
import { McpServer, type ServerOptions, type ServerSession, type SessionOptions } from "mcpkit/server";

/**
 * An McpServer that also hears every session's notifications from the client, whichever
 * transport connected it (stdio, each Streamable HTTP session, HTTP+SSE): the library
 * passes `onNotification` per connect() call, and the transports call connect() themselves.
 */
export class NotifiedServer extends McpServer {
  private readonly onClientNotification: (notification: JsonRpcNotification, session: ServerSession) => void;

  constructor(
    options: ServerOptions,
    onClientNotification: (notification: JsonRpcNotification, session: ServerSession) => void,
  ) {
    super(options);
    this.onClientNotification = onClientNotification;
  }

  override connect(transport: Transport, options?: SessionOptions): Promise<ServerSession> {
    return super.connect(transport, {
      ...options,
      onNotification: (notification, session) => {
        this.onClientNotification(notification, session);
        options?.onNotification?.(notification, session);
      },
    });
  }
}
