import type { Implementation } from "./types/common.js";

/**
 * The `serverInfo` / `clientInfo` fields of `info`, without what else it carries (a
 * server's options, say) and without fields left undefined.
 */
export function implementationOf(info: Implementation): Implementation {
  const { name, version, title, description, icons, websiteUrl } = info;
  return {
    name,
    version,
    ...(title !== undefined && { title }),
    ...(description !== undefined && { description }),
    ...(icons && { icons }),
    ...(websiteUrl !== undefined && { websiteUrl }),
  };
}
