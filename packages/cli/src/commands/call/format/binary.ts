import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";

/** Writes binary content (images, audio, blobs) into one folder: `--save DIR`. */

const EXTENSIONS: Record<string, string> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/gif": "gif",
  "image/webp": "webp",
  "image/svg+xml": "svg",
  "audio/wav": "wav",
  "audio/x-wav": "wav",
  "audio/mpeg": "mp3",
  "audio/ogg": "ogg",
  "application/pdf": "pdf",
  "application/json": "json",
  "text/plain": "txt",
};

/** Saves base64 content under a name of its own; returns the path written. */
export type Save = (base64: string, kind: string, mimeType: string | undefined, uri?: string) => string;

/** Names files after the resource's URI when there is one, else `<kind>-<n>.<ext>`; never overwrites. */
export function saverInto(dir: string): Save {
  let made = false;
  let n = 0;
  return (base64, kind, mimeType, uri) => {
    if (!made) {
      mkdirSync(dir, { recursive: true });
      made = true;
    }
    const fromUri = uri ? basename(uri.replace(/[?#].*$/, "")).replace(/[^\w.-]+/g, "_") : "";
    const ext = (mimeType && EXTENSIONS[mimeType.split(";")[0]?.trim() ?? ""]) ?? "bin";
    const base = fromUri && fromUri !== "." && fromUri !== ".." ? fromUri : `${kind}-${++n}.${ext}`;
    let path = join(dir, base);
    for (let i = 2; existsSync(path); i++) path = join(dir, base.replace(/(\.[^.]*)?$/, `-${i}$1`));
    writeFileSync(path, Buffer.from(base64, "base64"));
    return path;
  };
}
