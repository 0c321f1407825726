import type { ContentBlock, PromptMessage, ResourceContents, SamplingContent } from "mcpkit";
import type { Colors } from "../output.js";
import type { Save } from "./binary.js";

/** Bytes in a base64 string, without decoding it. */
export function base64Bytes(data: string): number {
  const padding = data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

/** Binary content as one line: its kind, type and size, and where `save` (--save DIR) put it. */
function describeMedia(
  kind: string,
  mimeType: string | undefined,
  data: string,
  c: Colors,
  save?: Save,
  uri?: string,
): string {
  const saved = save ? ` → ${save(data, kind, mimeType, uri)}` : "";
  return c.dim(`[${kind}${mimeType ? ` ${mimeType}` : ""}, ${base64Bytes(data)} bytes${saved}]`);
}

/** One resource's contents: its text, or a note for a blob (binary is never dumped on a terminal). */
export function resourceLines(contents: ResourceContents, c: Colors, save?: Save): string[] {
  if ("text" in contents && typeof contents.text === "string") return [contents.text];
  const blob = (contents as { blob: string }).blob ?? "";
  return [describeMedia("blob", contents.mimeType, blob, c, save, contents.uri)];
}

/** A content block as lines of text: text as it is, media and resources described (and saved, with `save`). */
export function contentLines(block: ContentBlock | SamplingContent, c: Colors, save?: Save): string[] {
  switch (block.type) {
    case "text":
      return [block.text];
    case "image":
    case "audio":
      return [describeMedia(block.type, block.mimeType, block.data, c, save)];
    case "resource_link": {
      const about = [block.title ?? block.name, block.mimeType].filter(Boolean).join(", ");
      return [`${c.cyan("→")} ${block.uri}${about ? c.dim(` (${about})`) : ""}`];
    }
    case "resource": {
      const { uri, mimeType } = block.resource;
      return [c.dim(`[resource ${uri}${mimeType ? ` ${mimeType}` : ""}]`), ...resourceLines(block.resource, c, save)];
    }
    case "tool_use":
      return [c.dim(`[tool use ${block.name} ${JSON.stringify(block.input)}]`)];
    case "tool_result":
      return [c.dim(`[tool result for ${block.toolUseId}]`), ...block.content.flatMap((b) => contentLines(b, c, save))];
    default:
      return [c.dim(JSON.stringify(block))];
  }
}

/** Prompt or sampling messages, each headed by its role. */
export function messageLines(
  messages: { role: string; content: PromptMessage["content"] | SamplingContent | SamplingContent[] }[],
  c: Colors,
  save?: Save,
): string[] {
  return messages.flatMap(({ role, content }) => {
    const blocks = Array.isArray(content) ? content : [content];
    const lines = blocks.flatMap((block) => contentLines(block, c, save));
    const [first = "", ...rest] = lines;
    return [`${c.bold(`${role}:`)} ${first}`, ...rest.map((line) => `  ${line}`)];
  });
}
