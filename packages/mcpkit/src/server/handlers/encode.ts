import type { RevisionRules } from "../../protocol/revisions.js";
import type { ContentBlock } from "../../protocol/types/content.js";

/**
 * Fits what the definition produced to the negotiated revision: fields a revision does
 * not define are left out, and content types it lacks are described in text. The newest
 * revision passes through untouched.
 */

const LATEST_FIELDS = (rules: RevisionRules) => rules.titles && rules.icons && rules.structuredOutput;

export function encodeDescriptor<T extends object>(item: T, rules: RevisionRules): T {
  if (LATEST_FIELDS(rules) && rules.toolAnnotations) return item;
  const copy = { ...item } as Record<string, unknown>;
  if (!rules.titles) delete copy.title;
  if (!rules.icons) delete copy.icons;
  if (!rules.structuredOutput) delete copy.outputSchema;
  if (!rules.toolAnnotations && "inputSchema" in copy) delete copy.annotations;
  return copy as T;
}

export function encodeContent(block: ContentBlock, rules: RevisionRules): ContentBlock {
  if (rules.contentTypes.has(block.type)) return block;
  switch (block.type) {
    case "resource_link":
      return { type: "text", text: `Resource: ${block.uri}${block.description ? ` (${block.description})` : ""}` };
    case "audio":
      return {
        type: "text",
        text: `[audio content (${block.mimeType}) not supported by protocol revision ${rules.revision}]`,
      };
    default:
      return block;
  }
}

export function encodeContents(blocks: ContentBlock[], rules: RevisionRules): ContentBlock[] {
  if (rules.contentTypes.size >= 5) return blocks;
  return blocks.map((b) => encodeContent(b, rules));
}
