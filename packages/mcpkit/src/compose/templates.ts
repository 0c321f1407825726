import type { ResourceTemplate } from "../protocol/types/features.js";
import type { ResourceWatch, TemplateEntry } from "../server/registry/resource.js";
import { templateFrom, type Upstream } from "./entries.js";

/** Templates this server can match, watched with `subscribe` when given; one it cannot parse is reported and left out. */
export function usableTemplates(
  templates: ResourceTemplate[],
  upstream: Upstream,
  subscribe: ResourceWatch | undefined,
  onError: (error: unknown) => void,
): TemplateEntry[] {
  return templates.flatMap((t) => {
    try {
      const entry = templateFrom(t, upstream);
      return [subscribe ? { ...entry, subscribe } : entry];
    } catch (error) {
      onError(error);
      return [];
    }
  });
}
