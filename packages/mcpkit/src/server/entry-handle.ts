import type { FeatureSet } from "./registry/feature-set.js";

/** A registered tool, resource, template or prompt: change it at runtime and clients are told. */
export interface Handle {
  readonly enabled: boolean;
  enable(): void;
  disable(): void;
  remove(): void;
}

/** An entry joins its set (refused when its key is taken); the handle changes it at runtime. */
export function register<T extends { key: string; enabled: boolean }>(
  set: FeatureSet<T>,
  entry: T,
  what: string,
): Handle {
  set.add(entry, what);
  return {
    get enabled() {
      return entry.enabled;
    },
    enable: () => {
      if (entry.enabled) return;
      entry.enabled = true;
      set.changed();
    },
    disable: () => {
      if (!entry.enabled) return;
      entry.enabled = false;
      set.changed();
    },
    remove: () => {
      set.remove(entry.key);
    },
  };
}
