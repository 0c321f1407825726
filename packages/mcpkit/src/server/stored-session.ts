import type { ServerSession } from "./server-session.js";
import type { SessionRecord } from "./session-store.js";

/**
 * A legacy session as the HTTP endpoint's session table holds it: what `serveConnection`
 * returns. Its state travels through a SessionStore, so another node can serve it.
 */
export interface StoredSession extends ServerSession {
  /** Bumped whenever what a SessionRecord holds changes, so a store saves only then. */
  readonly stateVersion: number;
  /** What another node needs to serve this session, once initialized. */
  record(principal: string | undefined): SessionRecord | undefined;
  /** Takes the state a record holds (a session opened on another node, or changed there). */
  restore(record: SessionRecord): void;
  /**
   * Another node saved a newer record, which `loaded` is fetching (and restores): until it
   * settles, an update this copy would filter out waits for it, since the new record may
   * hold the subscription it is for.
   */
  reloading(loaded: Promise<unknown>): void;
}
