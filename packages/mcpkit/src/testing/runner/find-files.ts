import { readdir } from "node:fs/promises";
import { join, relative } from "node:path";

/** The default test files: `**\/*.mcptest.yaml` (and `.yml`). */
export const TEST_FILE_SUFFIXES = [".mcptest.yaml", ".mcptest.yml"];

/** How deep the search goes, and how many folders it reads, before it stops. */
const MAX_DEPTH = 32;
const MAX_FOLDERS = 10_000;

/**
 * The test files under `root`, sorted, as paths relative to it: every folder but
 * `node_modules` and dot folders (`.git`, `.cache`…), which hold other people's files.
 * Links are not followed (a link can lead out of the project or round in a loop).
 */
export async function findTestFiles(root: string): Promise<string[]> {
  const found: string[] = [];
  let folders = 0;
  const walk = async (dir: string, depth: number) => {
    if (depth > MAX_DEPTH || ++folders > MAX_FOLDERS) return;
    const entries = await readdir(dir, { withFileTypes: true });
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name === "node_modules" || entry.name.startsWith(".")) continue;
        await walk(path, depth + 1);
      } else if (entry.isFile() && TEST_FILE_SUFFIXES.some((suffix) => entry.name.endsWith(suffix)))
        found.push(relative(root, path));
    }
  };
  await walk(root, 0);
  return found.sort();
}
