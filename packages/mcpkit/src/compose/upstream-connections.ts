import { McpError } from "../jsonrpc/errors.js";
import type { ServerSession } from "../server/server-session.js";
import { proxyEvent } from "./proxy-event.js";
import type { UpstreamConnection } from "./upstream-connection.js";

/**
 * The default bound on upstream connections (processes, for a command) when there is one
 * per session: ProxyOptions.maxUpstreams, the shared one that reads the lists included.
 */
export const DEFAULT_MAX_UPSTREAMS = 16;

/** When every per-session upstream connection is busy, how long a client is told to wait. */
const BUSY_RETRY_MS = 5000;

/** Every per-session upstream connection is busy with a call: a new session cannot be given one now. */
export class UpstreamsBusyError extends McpError {
  constructor(max: number) {
    super(
      -32000,
      `All ${max} of this proxy's upstream connections for client sessions are busy: try again in ${BUSY_RETRY_MS / 1000} seconds`,
      { reason: "upstreams-busy", retryAfterMs: BUSY_RETRY_MS },
    );
    this.name = "UpstreamsBusyError";
  }
}

interface Held {
  opening: Promise<UpstreamConnection>;
  connection: UpstreamConnection | undefined;
  /** When a call last went through it (ms, performance.now). */
  usedAt: number;
}

/**
 * One upstream connection per downstream session: opened when the session has finished
 * its handshake (or at its first forwarded request), closed when the session closes. At
 * most `max` at once: a new one takes the place of the least recently used connection
 * with no call in progress, and that connection's session is closed (its client gets 404
 * on its next request and starts a new session, as the spec says); when every one is busy,
 * the new session cannot be served and is refused (UpstreamsBusyError).
 */
export class SessionConnections {
  private readonly connections = new Map<ServerSession, Held>();
  private readonly connect: (session: ServerSession) => Promise<UpstreamConnection>;
  private readonly onError: (error: unknown) => void;
  private readonly max: number;

  constructor(
    connect: (session: ServerSession) => Promise<UpstreamConnection>,
    onError: (error: unknown) => void,
    max = DEFAULT_MAX_UPSTREAMS,
  ) {
    this.connect = connect;
    this.onError = onError;
    this.max = max;
  }

  /** How many are held now (opening included). */
  get size(): number {
    return this.connections.size;
  }

  /** Why a new session could not be given a connection now (every one busy), or undefined. */
  refusal(): UpstreamsBusyError | undefined {
    if (this.connections.size < this.max || this.leastRecentlyUsedIdle()) return undefined;
    return new UpstreamsBusyError(this.max);
  }

  /** The session's connection, if it has one (opening or open). */
  held(session: ServerSession): Promise<UpstreamConnection> | undefined {
    return this.connections.get(session)?.opening;
  }

  /** The session's connection, opened now if it has none. */
  get(session: ServerSession): Promise<UpstreamConnection> {
    const held = this.connections.get(session);
    if (!held) return this.open(session);
    held.usedAt = performance.now();
    return held.opening;
  }

  open(session: ServerSession): Promise<UpstreamConnection> {
    const existing = this.connections.get(session);
    if (existing) return existing.opening;
    if (this.connections.size >= this.max) {
      const idle = this.leastRecentlyUsedIdle();
      if (!idle) {
        const refused = Promise.reject(new UpstreamsBusyError(this.max));
        refused.catch(() => session.close());
        return refused;
      }
      this.release(idle);
    }
    const held: Held = { opening: this.connect(session), connection: undefined, usedAt: performance.now() };
    this.connections.set(session, held);
    held.opening.then(
      (connection) => {
        held.connection = connection;
      },
      (error: unknown) => {
        this.onError(error);
        // Its requests fail with the reason; the session cannot be served.
        void session.close();
      },
    );
    // Closing the upstream connection may fail (its transport's close rejects): reported.
    void session.closed
      .then(async () => {
        if (this.connections.get(session) === held) this.connections.delete(session);
        await (await held.opening.catch(() => undefined))?.close();
      })
      .catch(this.onError);
    return held.opening;
  }

  async close(): Promise<void> {
    const all = [...this.connections.values()];
    this.connections.clear();
    await Promise.all(all.map(async (held) => (await held.opening.catch(() => undefined))?.close()));
  }

  /** The session whose open connection is idle and was used longest ago. */
  private leastRecentlyUsedIdle(): ServerSession | undefined {
    let oldest: [ServerSession, Held] | undefined;
    for (const entry of this.connections) {
      const connection = entry[1].connection;
      if (!connection?.routing.idle) continue;
      if (!oldest || entry[1].usedAt < oldest[1].usedAt) oldest = entry;
    }
    return oldest?.[0];
  }

  /** Stops a session's connection to make room: the session closes with it. */
  private release(session: ServerSession): void {
    const held = this.connections.get(session);
    this.connections.delete(session);
    this.onError(
      proxyEvent(
        `Stopped the upstream connection of an idle session to make room (at most ${this.max} for sessions at once, maxUpstreams ${this.max + 1} with the one reading the lists); that session is closed`,
      ),
    );
    const stopping = held?.connection?.close() ?? Promise.resolve();
    stopping
      .catch(this.onError)
      .then(() => session.close())
      .catch(this.onError);
  }
}
