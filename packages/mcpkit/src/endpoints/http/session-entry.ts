import type { SessionRecord } from "../../server/session-store.js";
import type { StoredSession } from "../../server/stored-session.js";
import type { HttpSessionTransport } from "../../transports/streamable-http/server/session-transport.js";

/** One session of the HTTP endpoint, as this node holds it. */
export interface SessionEntry {
  /** A session is its transport: closing the transport ends the server session with it. */
  transport: HttpSessionTransport;
  session: StoredSession;
  /** Who opened it: later requests must come from the same principal. */
  principal: string | undefined;
  /** Whom it counts against (session-admission.ts). */
  client: string | undefined;
  /** The session's stateVersion the store holds. */
  savedVersion: number;
  /** When the store's expiry was last pushed back (Date.now()). */
  touchedAt: number;
}

/** This node's sessions by id, and how to make the copy of a session opened elsewhere. */
export interface LocalSessions {
  readonly entries: Map<string, SessionEntry>;
  /** Rebuilds a session another node opened from its record (SessionOptions.restore). */
  connect(id: string, restore: SessionRecord): Promise<SessionEntry>;
  /** Work started and not awaited fails here: to the server's onError, never unhandled. */
  readonly report: (error: unknown) => void;
}
