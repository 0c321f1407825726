import { basename } from "node:path";
import { LIMITS, SKIPPED_DIRECTORIES } from "../limits.js";
import type { Area } from "../roots/area.js";
import { readDirectoryInside } from "./confined.js";
import { guardPath } from "./guard.js";

/**
 * Completes a path the way a shell does, one level at a time: relative to the first
 * allowed directory (or absolute), directories with a trailing "/". The typed directory
 * goes through the sandbox like any path, so nothing outside the areas is listed.
 */
export async function completeFilePath(areas: readonly Area[], value: string): Promise<string[]> {
  const slash = value.lastIndexOf("/");
  const typedDir = value.slice(0, slash + 1);
  const prefix = value.slice(slash + 1);
  try {
    const dir = await guardPath(areas, typedDir === "" ? "." : typedDir);
    const entries = await readDirectoryInside([dir.area], dir.real, dir.shown);
    return entries
      .filter((e) => e.name.startsWith(prefix) && !SKIPPED_DIRECTORIES.has(e.name))
      .filter((e) => !e.name.startsWith(".") || prefix.startsWith("."))
      .slice(0, LIMITS.listEntries)
      .map((e) => `${typedDir}${basename(e.name)}${e.isDirectory() ? "/" : ""}`)
      .sort();
  } catch {
    return []; // Outside the areas, missing, or not a directory: nothing to offer.
  }
}
