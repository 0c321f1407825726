import type { SessionStore } from "../../server/session-store.js";
import type { LocalSessions } from "./session-entry.js";

/**
 * This node's heartbeat in the shared store: other nodes learn from it whether a request
 * this node runs can still be answered. While the store cannot be reached, this node can
 * neither open sessions others could serve nor know that its copies are current, so it
 * serves none (`down`); once it answers again, each copy is checked against its record.
 */
export class StoreHeartbeat {
  /** The store failed this node's last heartbeat (or a request): its copies may be stale. */
  down = false;
  private resyncing = false;
  private readonly timer: ReturnType<typeof setInterval>;

  constructor(
    private readonly store: SessionStore,
    node: string,
    everyMs: number,
    private readonly local: LocalSessions,
  ) {
    // A failed beat is not reported: the store's own connection reports an outage once,
    // and to the other nodes this node is then rightly as good as dead.
    const beat = () => {
      store
        .heartbeat(node, everyMs * 3)
        .then(
          () => this.reached(),
          () => {
            this.down = true;
          },
        )
        .catch(local.report);
    };
    beat();
    this.timer = setInterval(beat, everyMs);
    this.timer.unref?.();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /**
   * The store answers again: copies kept through the outage may have missed changes, so
   * each is checked against its record (requests in progress carry on): one ended or
   * expired meanwhile is closed, one changed elsewhere reloaded. Until then, none is served.
   */
  private reached(): void {
    if (!this.down || this.resyncing) return;
    this.resyncing = true;
    const { entries } = this.local;
    const checks = [...entries].map(async ([id, entry]) => {
      const record = await this.store.load(id);
      if (entries.get(id) !== entry) return;
      if (!record) {
        entries.delete(id);
        await entry.transport.discard();
      } else {
        entry.session.restore(record);
        entry.savedVersion = entry.session.stateVersion;
      }
    });
    Promise.all(checks).then(
      () => {
        this.down = false;
        this.resyncing = false;
      },
      () => {
        this.resyncing = false; // still unreachable: the next heartbeat tries again
      },
    );
  }
}
