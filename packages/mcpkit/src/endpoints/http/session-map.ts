import type { SessionEntry } from "./session-entry.js";

/**
 * A table's sessions by id, counting each client's sessions as they are added and removed,
 * wherever that happens (the table, the idle sweep, a cluster's store): admitting a new
 * session is then one lookup while no cap is reached, not a pass over every session.
 */
export class SessionMap extends Map<string, SessionEntry> {
  private readonly perClient = new Map<string, number>();

  /** How many sessions `client` holds. */
  countOf(client: string | undefined): number {
    return client === undefined ? 0 : (this.perClient.get(client) ?? 0);
  }

  override set(id: string, entry: SessionEntry): this {
    const had = super.get(id);
    if (had) this.uncount(had.client);
    super.set(id, entry);
    if (entry.client !== undefined) this.perClient.set(entry.client, this.countOf(entry.client) + 1);
    return this;
  }

  override delete(id: string): boolean {
    const had = super.get(id);
    if (!had) return false;
    super.delete(id);
    this.uncount(had.client);
    return true;
  }

  override clear(): void {
    super.clear();
    this.perClient.clear();
  }

  private uncount(client: string | undefined): void {
    if (client === undefined) return;
    const left = this.countOf(client) - 1;
    if (left > 0) this.perClient.set(client, left);
    else this.perClient.delete(client);
  }
}
