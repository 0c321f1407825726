import type { JsonRpcNotification } from "../jsonrpc/types.js";
import { eraOf } from "../protocol/era.js";
import { Connection } from "../session/connection.js";
import type { InboundRequest } from "../session/inbound.js";
import type { ConnectionOptions } from "../session/options.js";
import type { MessageInfo, Transport } from "../transports/transport.js";
import { LegacySession, type SessionHost } from "./eras/legacy.js";
import { serveModern } from "./eras/modern/serve.js";
import type { ServerSession, SessionOptions } from "./session.js";

/**
 * One connection that serves both eras (stdio, in-memory; basic/versioning §Backward
 * Compatibility): each request is classified on its own; modern ones are served
 * statelessly, the rest by the handshake's session.
 */
class DualEra implements ConnectionOptions {
  constructor(
    private readonly server: SessionHost,
    private readonly session: LegacySession,
  ) {}

  onRequest(inbound: InboundRequest): object | Promise<object> {
    if (eraOf(inbound.params) === "legacy") return this.session.onRequest(inbound);
    // The connection is shared, so the session's channel carries the request's notifications.
    return serveModern(
      this.server,
      inbound,
      (method, params) => this.session.notify(method, params, inbound.id),
      this.session.binding,
    );
  }

  onNotification(notification: JsonRpcNotification, info: MessageInfo | undefined): void {
    this.session.onNotification(notification, info);
  }

  batchesAllowed(): boolean {
    return this.session.batchesAllowed();
  }

  unreadableIdNull(): boolean {
    return this.session.unreadableIdNull();
  }

  onClose(): void {
    this.session.onClose();
  }

  onError(error: unknown): void {
    this.session.onError(error);
  }

  get timeoutMs(): number | undefined {
    return this.session.timeoutMs;
  }
}

/** Serves one connection until it closes; resolves once the transport has started. */
export async function serveConnection(
  server: SessionHost,
  transport: Transport,
  options: SessionOptions = {},
): Promise<ServerSession> {
  const session = new LegacySession(server, options);
  const connection = new Connection(transport, options.era === "legacy" ? session : new DualEra(server, session));
  session.bind(connection);
  if (options.restore) session.restore(options.restore);
  server.attachSession(session);
  await connection.start();
  return session;
}
