import type { SessionChange, SessionStore } from "../../server/session-store.js";
import type { ClusterRelay } from "./cluster-relay.js";
import type { LocalSessions, SessionEntry } from "./session-entry.js";
import type { StoreHeartbeat } from "./store-heartbeat.js";

/**
 * With a SessionStore (a cluster), this node's sessions are a cache of live session
 * objects and the store is the truth: a session unknown here is rebuilt from its record, a
 * change of its state is saved, one ended or changed on another node is closed or reloaded
 * here, and idle expiry is the store's (the local sweep only drops copies nobody uses here).
 */
export class StoredSessions {
  /** Rebuilds in progress, so concurrent requests for one session build one copy. */
  private readonly rebuilding = new Map<string, Promise<SessionEntry | undefined>>();
  /** Saves of ours not yet echoed back by the store's watch (not worth a reload). */
  private readonly ownSaves = new Map<string, number>();
  private readonly stopWatching: () => void;

  constructor(
    private readonly store: SessionStore,
    private readonly local: LocalSessions,
    private readonly idleTimeoutMs: number,
    private readonly heartbeat: StoreHeartbeat,
    private readonly relay: ClusterRelay,
  ) {
    this.stopWatching = store.watch((change) => this.changed(change));
  }

  stop(): void {
    this.stopWatching();
  }

  /**
   * The store keeps a record a little longer than the idle timeout: its expiry is pushed
   * back at most once per quarter of it, so a session used all along never lapses.
   */
  get ttl(): number {
    return Math.ceil(this.idleTimeoutMs * 1.25);
  }

  /** Whether the expiry of a session held here is due to be pushed back (and notes that it is). */
  private dueForTouch(entry: SessionEntry): boolean {
    if (Date.now() - entry.touchedAt <= this.idleTimeoutMs / 4) return false;
    entry.touchedAt = Date.now();
    return true;
  }

  /**
   * A session held here costs a store round trip only when its expiry is due to be pushed
   * back; false when the store no longer has it (expired or deleted while this node was
   * not told): the copy goes too.
   */
  async stillStored(id: string, entry: SessionEntry): Promise<boolean> {
    if (!this.dueForTouch(entry)) return true;
    if (await this.store.touch(id, this.ttl)) return true;
    await entry.transport.evict();
    return false;
  }

  /** A session held elsewhere: loaded, and then held here too. */
  load(id: string): Promise<SessionEntry | undefined> {
    let pending = this.rebuilding.get(id);
    if (!pending) {
      pending = this.rebuild(id).finally(() => this.rebuilding.delete(id));
      this.rebuilding.set(id, pending);
    }
    return pending;
  }

  private async rebuild(id: string): Promise<SessionEntry | undefined> {
    const record = await this.store.load(id);
    if (!record) return undefined;
    return this.local.entries.get(id) ?? this.local.connect(id, record);
  }

  /** Saves the session's record if a request changed it; rejects if the store cannot be reached. */
  async save(id: string, entry: SessionEntry): Promise<void> {
    if (entry.session.stateVersion === entry.savedVersion) return;
    const version = entry.session.stateVersion;
    const record = entry.session.record(entry.principal);
    if (!record) return;
    this.ownSaves.set(id, (this.ownSaves.get(id) ?? 0) + 1);
    try {
      await this.store.save(record, this.ttl);
    } catch (error) {
      this.heartbeat.down = true;
      throw error;
    }
    entry.savedVersion = version;
    entry.touchedAt = Date.now();
  }

  /** An open stream is activity the store cannot see: a busy session's record is kept alive. */
  keepAlive(id: string, entry: SessionEntry): void {
    if (this.dueForTouch(entry)) this.store.touch(id, this.ttl).catch(this.local.report);
  }

  /** Ends a session everywhere. */
  async delete(id: string): Promise<void> {
    await this.store.delete(id);
  }

  /** Another node (or this one) changed or ended a session: this node's copy follows. */
  private changed(change: SessionChange): void {
    if (change.kind === "message") {
      this.relay.relayed(change);
      return;
    }
    const { entries } = this.local;
    const entry = entries.get(change.id);
    if (change.kind === "saved") {
      const own = this.ownSaves.get(change.id);
      if (own !== undefined) {
        if (own <= 1) this.ownSaves.delete(change.id);
        else this.ownSaves.set(change.id, own - 1);
        return;
      }
    }
    if (!entry) return;
    if (change.kind === "ended") {
      // Ended everywhere: this copy's streams go too.
      entries.delete(change.id);
      entry.transport.discard().catch(this.local.report);
      return;
    }
    entry.session.reloading(this.reload(entry, change.id));
  }

  private async reload(entry: SessionEntry, id: string): Promise<void> {
    try {
      const record = await this.store.load(id);
      if (!record) return;
      entry.session.restore(record);
      entry.savedVersion = entry.session.stateVersion;
    } catch (error) {
      this.local.report(error);
    }
  }
}
