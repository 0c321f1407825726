import type { ServerSession } from "../server/server-session.js";
import type { UpstreamConnection } from "./upstream-connection.js";

/**
 * One upstream connection per downstream session: opened when the session has finished
 * its handshake (or at its first forwarded request), closed when the session closes.
 */
export class SessionConnections {
  private readonly connections = new Map<ServerSession, Promise<UpstreamConnection>>();
  private readonly connect: (session: ServerSession) => Promise<UpstreamConnection>;
  private readonly onError: (error: unknown) => void;

  constructor(connect: (session: ServerSession) => Promise<UpstreamConnection>, onError: (error: unknown) => void) {
    this.connect = connect;
    this.onError = onError;
  }

  /** The session's connection, opened now if it has none. */
  get(session: ServerSession): Promise<UpstreamConnection> {
    return this.connections.get(session) ?? this.open(session);
  }

  open(session: ServerSession): Promise<UpstreamConnection> {
    const existing = this.connections.get(session);
    if (existing) return existing;
    const opening = this.connect(session);
    this.connections.set(session, opening);
    opening.catch((error: unknown) => {
      this.onError(error);
      // Its requests fail with the reason; the session cannot be served.
      void session.close();
    });
    // Closing the upstream connection may fail (its transport's close rejects): reported.
    void session.closed
      .then(async () => {
        this.connections.delete(session);
        await (await opening.catch(() => undefined))?.close();
      })
      .catch(this.onError);
    return opening;
  }

  async close(): Promise<void> {
    const all = [...this.connections.values()];
    this.connections.clear();
    await Promise.all(all.map(async (opening) => (await opening.catch(() => undefined))?.close()));
  }
}
