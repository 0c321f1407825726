import type { Dirent } from "node:fs";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { SKIPPED_DIRECTORIES } from "../limits.js";
import type { Area } from "../roots/area.js";
import { readDirectoryInside } from "./confined.js";

export interface WalkEntry {
  /** Absolute path. */
  path: string;
  /** Relative to where the walk started, "/"-separated. */
  rel: string;
  depth: number;
  kind: "file" | "directory" | "symlink" | "other";
  /** A directory the walk did not enter (.git, node_modules, or too deep). */
  skipped?: boolean;
}

/** Reads a directory: through a verified descriptor when the areas are given (confined.ts). */
const read = (dir: string, areas: readonly Area[] | undefined) =>
  areas ? readDirectoryInside(areas, dir, dir) : readdir(dir, { withFileTypes: true });

const kindOf = (d: Dirent): WalkEntry["kind"] =>
  d.isSymbolicLink() ? "symlink" : d.isDirectory() ? "directory" : d.isFile() ? "file" : "other";

/**
 * Depth-first, in name order. Never follows symbolic links (a link out of a root is
 * listed, not entered), steps over SKIPPED_DIRECTORIES, and skips what it cannot read.
 * `prune` drops an entry (and what is under it). The caller bounds the work by stopping
 * the iteration.
 */
export async function* walk(
  start: string,
  options: {
    maxDepth?: number;
    signal?: AbortSignal;
    prune?: (entry: WalkEntry) => boolean;
    /** Read each directory only once verified inside these. */
    areas?: readonly Area[];
  } = {},
): AsyncGenerator<WalkEntry> {
  const maxDepth = options.maxDepth ?? Number.POSITIVE_INFINITY;
  async function* visit(dir: string, prefix: string, depth: number): AsyncGenerator<WalkEntry> {
    let entries: Dirent[];
    try {
      entries = await read(dir, options.areas);
    } catch {
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      options.signal?.throwIfAborted();
      const path = join(dir, entry.name);
      const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
      const kind = kindOf(entry);
      const found: WalkEntry = { path, rel, depth, kind };
      if (options.prune?.(found)) continue;
      const enter = kind === "directory" && !SKIPPED_DIRECTORIES.has(entry.name) && depth < maxDepth;
      if (kind === "directory" && !enter) found.skipped = true;
      yield found;
      if (enter) yield* visit(path, rel, depth + 1);
    }
  }
  yield* visit(start, "", 1);
}

/**
 * Breadth-first, each directory in name order: the shallow entries first, which is what a
 * bounded listing (resources/list) or a bounded set of watchers should cover first.
 */
export async function* walkBreadthFirst(
  start: string,
  signal?: AbortSignal,
  areas?: readonly Area[],
): AsyncGenerator<WalkEntry> {
  const queue: { dir: string; prefix: string; depth: number }[] = [{ dir: start, prefix: "", depth: 1 }];
  for (let next = queue.shift(); next; next = queue.shift()) {
    let entries: Dirent[];
    try {
      entries = await read(next.dir, areas);
    } catch {
      continue;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      signal?.throwIfAborted();
      const kind = kindOf(entry);
      const found: WalkEntry = {
        path: join(next.dir, entry.name),
        rel: next.prefix ? `${next.prefix}/${entry.name}` : entry.name,
        depth: next.depth,
        kind,
      };
      if (kind === "directory") {
        if (SKIPPED_DIRECTORIES.has(entry.name)) found.skipped = true;
        else queue.push({ dir: found.path, prefix: found.rel, depth: next.depth + 1 });
      }
      yield found;
    }
  }
}
