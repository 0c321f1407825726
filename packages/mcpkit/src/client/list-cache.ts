/**
 * One cached list (all pages). A list_changed notification invalidates it; a fetch that
 * was in flight when that happened is not kept, so a stale list is never cached.
 */
export class ListCache<T> {
  private value: Promise<T[]> | undefined;
  private generation = 0;
  private readonly fetch: () => Promise<T[]>;

  constructor(fetch: () => Promise<T[]>) {
    this.fetch = fetch;
  }

  get(): Promise<T[]> {
    if (this.value) return this.value;
    const generation = this.generation;
    const value = this.fetch();
    this.value = value;
    value.then(
      () => {
        if (generation !== this.generation && this.value === value) this.value = undefined;
      },
      () => {
        if (this.value === value) this.value = undefined;
      },
    );
    return value;
  }

  invalidate(): void {
    this.generation++;
    this.value = undefined;
  }
}
