/** One fetch of a whole list: its items and until when (Date.now() ms) they count as fresh. */
export interface ListFetch<T> {
  items: T[];
  freshUntil: number;
}

/**
 * One cached list (all pages). It is served while fresh: until a list_changed
 * notification invalidates it and, on 2026-07-28, only until the results' `ttlMs` runs
 * out (server/utilities/caching §Freshness Calculation: 0 or absent means fetch every
 * time). Callers that come while a fetch runs share it. A fetch that was in flight when a
 * notification came is handed to its callers but not kept, so a stale list is never cached.
 */
export class ListCache<T> {
  private entry: ListFetch<T> | undefined;
  private pending: Promise<ListFetch<T>> | undefined;
  private generation = 0;
  private readonly fetch: () => Promise<ListFetch<T>>;

  constructor(fetch: () => Promise<ListFetch<T>>) {
    this.fetch = fetch;
  }

  async get(): Promise<T[]> {
    if (this.entry && Date.now() < this.entry.freshUntil) return this.entry.items;
    return (await (this.pending ?? this.load())).items;
  }

  invalidate(): void {
    this.generation++;
    this.entry = undefined;
    this.pending = undefined;
  }

  private load(): Promise<ListFetch<T>> {
    const generation = this.generation;
    const pending = this.fetch();
    this.pending = pending;
    pending.then(
      (entry) => {
        if (this.pending === pending) this.pending = undefined;
        if (generation === this.generation) this.entry = entry;
      },
      () => {
        if (this.pending === pending) this.pending = undefined;
      },
    );
    return pending;
  }
}
