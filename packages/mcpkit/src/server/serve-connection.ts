import { Connection } from "../connection/connection.js";
import type { ConnectionOptions } from "../connection/connection-options.js";
import type { InboundRequest } from "../connection/inbound-request.js";
import type { JsonRpcNotification } from "../jsonrpc/types.js";
import { eraOf } from "../protocol/era.js";
import type { MessageInfo, Transport } from "../transports/transport.js";
import { LegacyInbound } from "./eras/legacy/inbound.js";
import { LegacySession, type SessionHost } from "./eras/legacy/session.js";
import type { serveModern } from "./eras/modern/serve.js";
import type { SessionOptions } from "./server-session.js";
import type { StoredSession } from "./stored-session.js";

/** 2026-07-28's adapter, loaded on a connection's first modern request: most clients speak a legacy revision. */
let modernEra: typeof serveModern | undefined;
let loadingModernEra: Promise<typeof serveModern> | undefined;
const loadModernEra = () =>
  (loadingModernEra ??= import("./eras/modern/serve.js").then((m) => (modernEra = m.serveModern)));

/**
 * One connection that serves both eras (stdio, in-memory; basic/versioning §Backward
 * Compatibility): each request is classified on its own; modern ones are served
 * statelessly, the rest by the handshake's session.
 */
class DualEra implements ConnectionOptions {
  constructor(
    private readonly server: SessionHost,
    private readonly legacy: LegacyInbound,
  ) {}

  onRequest(inbound: InboundRequest): object | Promise<object> {
    if (eraOf(inbound.params) === "legacy") return this.legacy.onRequest(inbound);
    const { session } = this.legacy;
    // The connection is shared, so the session's channel carries the request's notifications.
    const serve = (era: typeof serveModern) =>
      era(this.server, inbound, (method, params) => session.notify(method, params, inbound.id), session.binding);
    return modernEra ? serve(modernEra) : loadModernEra().then(serve);
  }

  onNotification(notification: JsonRpcNotification, info: MessageInfo | undefined): void {
    this.legacy.onNotification(notification, info);
  }

  batchesAllowed(): boolean {
    return this.legacy.batchesAllowed();
  }

  unreadableIdNull(): boolean {
    return this.legacy.unreadableIdNull();
  }

  onClose(): void {
    this.legacy.onClose();
  }

  onError(error: unknown): void {
    this.legacy.onError(error);
  }

  get timeoutMs(): number | undefined {
    return this.legacy.timeoutMs;
  }
}

/**
 * Serves one connection until it closes; resolves once the transport has started, with
 * the connection's session (what the HTTP endpoint keeps in its session table).
 */
export async function serveConnection(
  server: SessionHost,
  transport: Transport,
  options: SessionOptions = {},
): Promise<StoredSession> {
  const session = new LegacySession(server);
  const legacy = new LegacyInbound(server, session, options);
  const connection = new Connection(transport, options.era === "legacy" ? legacy : new DualEra(server, legacy));
  session.bind(connection);
  if (options.restore) session.restore(options.restore);
  server.attachSession(session);
  await connection.start();
  return session;
}
