import type { Annotations, Meta } from "./protocol/types/common.js";
import type {
  AudioContent,
  EmbeddedResource,
  ImageContent,
  ResourceContents,
  ResourceLink,
  TextContent,
} from "./protocol/types/content.js";

/** Small builders for content blocks and tool results. */

export const text = (value: string, extra?: { annotations?: Annotations; _meta?: Meta }): TextContent => ({
  type: "text",
  text: value,
  ...extra,
});

const base64 = (data: string | Uint8Array) => (typeof data === "string" ? data : Buffer.from(data).toString("base64"));

/** `data` is base64 text, or bytes that are encoded for you. */
export const image = (
  data: string | Uint8Array,
  mimeType: string,
  extra?: { annotations?: Annotations },
): ImageContent => ({
  type: "image",
  data: base64(data),
  mimeType,
  ...extra,
});

export const audio = (
  data: string | Uint8Array,
  mimeType: string,
  extra?: { annotations?: Annotations },
): AudioContent => ({
  type: "audio",
  data: base64(data),
  mimeType,
  ...extra,
});

export const resourceLink = (link: Omit<ResourceLink, "type">): ResourceLink => ({ type: "resource_link", ...link });

export const embedded = (resource: ResourceContents, extra?: { annotations?: Annotations }): EmbeddedResource => ({
  type: "resource",
  resource,
  ...extra,
});

/**
 * A tool execution error (server/tools §Error Handling): shown to the model, not a protocol
 * error. Usable in any tool, one with an `output` schema included.
 */
export const toolError = (message: string): { content: TextContent[]; isError: true } => ({
  content: [{ type: "text", text: message }],
  isError: true,
});

/** A structured result with the text fallback older clients read (server/tools §Structured Content). */
export const structured = <T extends Record<string, unknown>>(
  value: T,
): { content: TextContent[]; structuredContent: T } => ({
  content: [{ type: "text", text: JSON.stringify(value) }],
  structuredContent: value,
});
