import { readdirSync, readFileSync } from "node:fs";
import { extname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

/**
 * The page, built from ui/ at build time (scripts/build-ui.mjs) into packages/cli/dist/inspector-ui:
 * the same folder whether this module runs from src/ (tests) or from dist/.
 */
export const UI_DIR = fileURLToPath(new URL("../../dist/inspector-ui/", import.meta.url));

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
};

export interface StaticFile {
  type: string;
  body: Buffer;
  gzip: Buffer;
}

/** Every file of the built page, read once and compressed once: a few tens of kilobytes. */
export function loadStaticFiles(dir = UI_DIR): Map<string, StaticFile> {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    throw new Error(`The inspector's page is not built (${dir} is missing): run npm run build`);
  }
  const files = new Map<string, StaticFile>();
  for (const name of names) {
    const type = TYPES[extname(name)];
    if (!type) continue;
    const body = readFileSync(join(dir, name));
    files.set(`/${name}`, { type, body, gzip: gzipSync(body, { level: 9 }) });
  }
  if (!files.has("/index.html")) throw new Error(`The inspector's page is incomplete: ${dir}index.html is missing`);
  return files;
}
