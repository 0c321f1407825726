import { extname } from "node:path";

const BY_EXTENSION: Record<string, string> = {
  ".txt": "text/plain",
  ".log": "text/plain",
  ".md": "text/markdown",
  ".markdown": "text/markdown",
  ".html": "text/html",
  ".htm": "text/html",
  ".css": "text/css",
  ".csv": "text/csv",
  ".tsv": "text/tab-separated-values",
  ".xml": "application/xml",
  ".svg": "image/svg+xml",
  ".json": "application/json",
  ".jsonl": "application/jsonl",
  ".yaml": "application/yaml",
  ".yml": "application/yaml",
  ".toml": "application/toml",
  ".js": "text/javascript",
  ".mjs": "text/javascript",
  ".cjs": "text/javascript",
  ".ts": "text/typescript",
  ".mts": "text/typescript",
  ".cts": "text/typescript",
  ".tsx": "text/tsx",
  ".jsx": "text/jsx",
  ".py": "text/x-python",
  ".rb": "text/x-ruby",
  ".go": "text/x-go",
  ".rs": "text/x-rust",
  ".java": "text/x-java",
  ".kt": "text/x-kotlin",
  ".c": "text/x-c",
  ".h": "text/x-c",
  ".cc": "text/x-c++",
  ".cpp": "text/x-c++",
  ".hpp": "text/x-c++",
  ".cs": "text/x-csharp",
  ".php": "text/x-php",
  ".sh": "application/x-sh",
  ".sql": "application/sql",
  ".diff": "text/x-diff",
  ".patch": "text/x-diff",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".ico": "image/vnd.microsoft.icon",
  ".bmp": "image/bmp",
  ".wav": "audio/wav",
  ".mp3": "audio/mpeg",
  ".ogg": "audio/ogg",
  ".mp4": "video/mp4",
  ".pdf": "application/pdf",
  ".zip": "application/zip",
  ".gz": "application/gzip",
  ".tar": "application/x-tar",
  ".wasm": "application/wasm",
  ".sqlite": "application/vnd.sqlite3",
  ".db": "application/vnd.sqlite3",
};

const TEXT_APPLICATION = new Set([
  "application/xml",
  "application/json",
  "application/jsonl",
  "application/yaml",
  "application/toml",
  "application/x-sh",
  "application/sql",
  "image/svg+xml",
]);

/** The MIME type a name suggests, or undefined when the extension says nothing. */
export const mimeFromName = (name: string): string | undefined => BY_EXTENSION[extname(name).toLowerCase()];

export const isTextMime = (mime: string): boolean => mime.startsWith("text/") || TEXT_APPLICATION.has(mime);

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** Text when it decodes as UTF-8 and holds no NUL byte: how `git` and editors tell too. */
export function looksLikeText(bytes: Uint8Array): boolean {
  if (bytes.includes(0)) return false;
  try {
    utf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** The MIME type of some content: by name first, by a look at the bytes otherwise. */
export function mimeOf(name: string, bytes: Uint8Array): string {
  return mimeFromName(name) ?? (looksLikeText(bytes) ? "text/plain" : "application/octet-stream");
}
