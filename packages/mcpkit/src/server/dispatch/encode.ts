import type { RevisionRules } from "../../protocol/revisions.js";
import type { ContentBlock } from "../../protocol/types/content.js";

/**
 * Fits what the definition produced to the negotiated revision: fields a revision does
 * not define are left out, and content types it lacks are described in text. The newest
 * revision passes through untouched.
 */

const LATEST_FIELDS = (rules: RevisionRules) =>
  rules.titles && rules.icons && rules.structuredOutput && rules.descriptorMeta;

export function encodeDescriptor<T extends object>(item: T, rules: RevisionRules): T {
  if ("execution" in item && rules.tasks !== "legacy") {
    // execution.taskSupport is 2025-11-25's; the 2026-07-28 Tasks extension is server-directed.
    const { execution: _tasks2025, ...rest } = item as Record<string, unknown>;
    return encodeDescriptor(rest as T, rules);
  }
  if (LATEST_FIELDS(rules) && rules.toolAnnotations) return item;
  const copy = { ...item } as Record<string, unknown>;
  if (!rules.titles) delete copy.title;
  // Before 2025-06-18 a Tool, Resource or Prompt has no _meta (an MCP Apps tool's ui, say).
  if (!rules.descriptorMeta) delete copy._meta;
  if (!rules.icons) delete copy.icons;
  if (!rules.structuredOutput) delete copy.outputSchema;
  if (!rules.toolAnnotations && "inputSchema" in copy) delete copy.annotations;
  else if (copy.annotations) copy.annotations = encodeAnnotations(copy.annotations, rules);
  return copy as T;
}

function encodeAnnotations(annotations: unknown, rules: RevisionRules): unknown {
  if (rules.annotationLastModified || typeof annotations !== "object" || annotations === null) return annotations;
  if (!("lastModified" in annotations)) return annotations;
  const { lastModified: _added2025_06, ...older } = annotations as Record<string, unknown>;
  return older;
}

export function encodeContent(block: ContentBlock, rules: RevisionRules): ContentBlock {
  if (rules.contentTypes.has(block.type)) {
    if (!block.annotations || rules.annotationLastModified) return block;
    return { ...block, annotations: encodeAnnotations(block.annotations, rules) } as ContentBlock;
  }
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
