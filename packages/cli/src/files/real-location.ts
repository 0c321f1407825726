import { realpathSync } from "node:fs";
import { basename, dirname, join, sep } from "node:path";

/**
 * Where a path really leads: every link along it followed, its own included, for a path
 * that need not exist yet (the nearest folder above it that exists is resolved, and the rest
 * appended). `.vscode -> ~/elsewhere` makes `.vscode/mcp.json` lead to ~/elsewhere/mcp.json.
 */
export function realLocation(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    const parent = dirname(path);
    return parent === path ? path : join(realLocation(parent), basename(path));
  }
}

/** Whether `path` (real) is `folder` (real) or inside it. */
export const isInside = (path: string, folder: string) =>
  path === folder || path.startsWith(folder.endsWith(sep) ? folder : folder + sep);
