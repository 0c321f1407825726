import type { FeatureSet, Keyed } from "../server/registry/feature-set.js";

/** An entry mirrored from another server, with the definition it was made from. */
export interface Mirrored extends Keyed {
  readonly definition: object;
}

/**
 * Makes `set` hold exactly the entries made from `definitions`: new ones added, gone ones
 * removed, changed ones replaced. Unchanged entries are kept as they are, so a sync that
 * finds nothing new tells no client anything.
 */
export function syncSet<T extends Mirrored, D>(
  set: FeatureSet<T>,
  definitions: readonly D[],
  make: (definition: D) => T,
  what: string,
): void {
  const wanted = new Map<string, T>();
  for (const definition of definitions) {
    const entry = make(definition);
    wanted.set(entry.key, entry);
  }
  const existing = new Map(set.all().map((entry) => [entry.key, entry]));
  for (const key of existing.keys()) if (!wanted.has(key)) set.remove(key);
  for (const [key, entry] of wanted) {
    const old = existing.get(key);
    if (!old) set.add(entry, what);
    else if (JSON.stringify(old.definition) !== JSON.stringify(entry.definition)) set.replace(key, entry, what);
  }
}
