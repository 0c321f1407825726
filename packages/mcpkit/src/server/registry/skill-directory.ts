import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";

/**
 * Reads a skill directory from disk (SKILL.md and every file below it; hidden files and
 * symbolic links left out) into the `files` of `server.skill()`: bytes by relative path.
 */
export async function readSkillDirectory(directory: string): Promise<Record<string, Uint8Array>> {
  const files: Record<string, Uint8Array> = {};
  async function walk(dir: string, prefix: string): Promise<void> {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      if (entry.name.startsWith(".")) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path, `${prefix}${entry.name}/`);
      else if (entry.isFile()) files[`${prefix}${entry.name}`] = await readFile(path);
    }
  }
  await walk(directory, "");
  return files;
}
