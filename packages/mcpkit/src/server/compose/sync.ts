import type { FeatureSet, Keyed } from "../registry/feature-set.js";

/** An entry mirrored from another server (mounted or proxied), with its definition. */
export interface Mirrored extends Keyed {
  readonly definition: object;
}

const sameDefinition = (a: Mirrored, b: Mirrored) => JSON.stringify(a.definition) === JSON.stringify(b.definition);

/**
 * The entries of a FeatureSet that mirror another server's list. `sync` makes them exactly
 * the given ones: new ones added, gone ones removed, changed ones replaced; unchanged ones
 * (`same`, by default an equal definition) are kept, so a sync that finds nothing new tells
 * no client anything. Entries the set holds from elsewhere are never touched: one whose key
 * a mirrored entry would take is reported (`onError`) and the mirrored one left out.
 */
export class MirroredSet<T extends Mirrored> {
  private readonly owned = new Map<string, T>();
  private readonly set: FeatureSet<T>;
  private readonly what: string;
  private readonly same: (old: T, made: T) => boolean;

  constructor(set: FeatureSet<T>, what: string, same: (old: T, made: T) => boolean = sameDefinition) {
    this.set = set;
    this.what = what;
    this.same = same;
  }

  sync(entries: readonly T[], onError: (error: unknown) => void): void {
    const wanted = new Map(entries.map((entry) => [entry.key, entry]));
    for (const key of [...this.owned.keys()]) {
      if (wanted.has(key)) continue;
      this.owned.delete(key);
      this.set.remove(key);
    }
    for (const [key, entry] of wanted) {
      const old = this.owned.get(key);
      try {
        if (!old) this.set.add(entry, this.what);
        else if (!this.same(old, entry)) this.set.replace(key, entry, this.what);
        else continue;
        this.owned.set(key, entry);
      } catch (error) {
        onError(error);
      }
    }
  }

  clear(): void {
    this.sync([], () => {});
  }
}
