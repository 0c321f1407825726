import type { ContentBlock } from "mcpkit";

/**
 * server/tools §Structured Content: a tool returning structuredContent usually repeats it
 * in its content too. What is worth printing of it: nothing when every value in it is
 * already in the content (an image's base64, its type, its text), else its JSON with the
 * binary it shares with the content summarised.
 */
export function structuredText(structured: unknown, content: ContentBlock[]): string | undefined {
  const payloads = new Map<string, string>();
  const shown = new Set<string>();
  for (const block of content) {
    if (block.type === "text") shown.add(block.text);
    if (block.type === "image" || block.type === "audio") {
      payloads.set(block.data, `<${block.type} ${block.mimeType}, shown above>`);
      shown.add(block.mimeType);
    }
    if (block.type === "resource") {
      const { resource } = block;
      if ("blob" in resource && typeof resource.blob === "string")
        payloads.set(resource.blob, `<blob of ${resource.uri}, shown above>`);
      if ("text" in resource && typeof resource.text === "string") shown.add(resource.text);
      shown.add(resource.uri);
    }
  }
  if (onlyRepeats(structured, payloads, shown)) return undefined;
  return JSON.stringify(
    structured,
    (_key, value) => (typeof value === "string" ? (payloads.get(value) ?? value) : value),
    2,
  );
}

function onlyRepeats(value: unknown, payloads: Map<string, string>, shown: Set<string>): boolean {
  if (typeof value === "string")
    return payloads.has(value) || shown.has(value) || value === "image" || value === "audio";
  if (Array.isArray(value)) return value.every((v) => onlyRepeats(v, payloads, shown));
  if (typeof value === "object" && value !== null)
    return Object.values(value).every((v) => onlyRepeats(v, payloads, shown));
  return false;
}
