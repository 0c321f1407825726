import type { ContentBlock, PromptMessage, ResourceContents, SamplingContent } from "mcpkit";
import type { Colors } from "../output.js";

/** Bytes in a base64 string, without decoding it. */
export function base64Bytes(data: string): number {
  const padding = data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

const describeMedia = (kind: string, mimeType: string | undefined, data: string, c: Colors) =>
  c.dim(`[${kind}${mimeType ? ` ${mimeType}` : ""}, ${base64Bytes(data)} bytes]`);

/** One resource's contents: its text, or a note for a blob (binary is never dumped on a terminal). */
export function resourceLines(contents: ResourceContents, c: Colors): string[] {
  if ("text" in contents && typeof contents.text === "string") return [contents.text];
  return [describeMedia("blob", contents.mimeType, (contents as { blob: string }).blob ?? "", c)];
}

/** A content block as lines of text: text as it is, media and resources described. */
export function contentLines(block: ContentBlock | SamplingContent, c: Colors): string[] {
  switch (block.type) {
    case "text":
      return [block.text];
    case "image":
    case "audio":
      return [describeMedia(block.type, block.mimeType, block.data, c)];
    case "resource_link": {
      const about = [block.title ?? block.name, block.mimeType].filter(Boolean).join(", ");
      return [`${c.cyan("→")} ${block.uri}${about ? c.dim(` (${about})`) : ""}`];
    }
    case "resource": {
      const { uri, mimeType } = block.resource;
      return [c.dim(`[resource ${uri}${mimeType ? ` ${mimeType}` : ""}]`), ...resourceLines(block.resource, c)];
    }
    case "tool_use":
      return [c.dim(`[tool use ${block.name} ${JSON.stringify(block.input)}]`)];
    case "tool_result":
      return [c.dim(`[tool result for ${block.toolUseId}]`), ...block.content.flatMap((b) => contentLines(b, c))];
    default:
      return [c.dim(JSON.stringify(block))];
  }
}

/** Prompt or sampling messages, each headed by its role. */
export function messageLines(
  messages: { role: string; content: PromptMessage["content"] | SamplingContent | SamplingContent[] }[],
  c: Colors,
): string[] {
  return messages.flatMap(({ role, content }) => {
    const blocks = Array.isArray(content) ? content : [content];
    const lines = blocks.flatMap((block) => contentLines(block, c));
    const [first = "", ...rest] = lines;
    return [`${c.bold(`${role}:`)} ${first}`, ...rest.map((line) => `  ${line}`)];
  });
}
