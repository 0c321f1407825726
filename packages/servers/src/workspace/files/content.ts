import { basename } from "node:path";
import { pathToFileURL } from "node:url";
import type { ContentBlock, ResourceContents } from "mcpkit";
import { audio, embedded, image, text } from "mcpkit/server";
import { isTextMime, looksLikeText, mimeOf } from "./mime.js";

/** A file's bytes as resource contents: text for text, base64 `blob` for the rest. */
export function fileContents(real: string, bytes: Buffer): ResourceContents {
  const uri = pathToFileURL(real).href;
  const mimeType = mimeOf(basename(real), bytes);
  // Text only when it really is UTF-8: a Latin-1 ".txt" goes as a blob, byte for byte.
  if (isTextMime(mimeType) && looksLikeText(bytes)) return { uri, mimeType, text: bytes.toString("utf8") };
  return { uri, mimeType, blob: bytes.toString("base64") };
}

/** A file's bytes as a tool result block: text, an image, audio, or an embedded binary resource. */
export function fileBlock(real: string, bytes: Buffer): ContentBlock {
  const contents = fileContents(real, bytes);
  if ("text" in contents) return text(contents.text);
  const mime = contents.mimeType ?? "application/octet-stream";
  if (/^image\/(png|jpeg|gif|webp)$/.test(mime)) return image(bytes, mime);
  if (mime.startsWith("audio/")) return audio(bytes, mime);
  return embedded(contents);
}
