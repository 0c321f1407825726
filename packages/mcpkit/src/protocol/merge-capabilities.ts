import type { ClientCapabilities, ServerCapabilities } from "./types/capabilities.js";

/**
 * Capabilities derived from what a peer implements, with the user's own declarations laid
 * over them: a key both name is merged one level deep (so `elicitation: { url: {} }` adds
 * URL mode to the derived form mode), anything else is taken as given.
 */
export function mergeCapabilities<C extends ClientCapabilities | ServerCapabilities>(
  derived: C,
  extra: C | undefined,
): C {
  if (!extra) return derived;
  const merged: Record<string, unknown> = { ...derived };
  for (const [key, value] of Object.entries(extra)) {
    const mine = merged[key];
    merged[key] = typeof mine === "object" && typeof value === "object" ? { ...mine, ...value } : value;
  }
  return merged as C;
}
