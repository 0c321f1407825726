import { type FSWatcher, watch } from "node:fs";
import { lstat } from "node:fs/promises";
import { basename, join, sep } from "node:path";
import { SKIPPED_DIRECTORIES } from "../limits.js";
import type { Area } from "../roots/area.js";
import { walkBreadthFirst } from "./walk.js";

export interface WatchEvents {
  /** A file or directory changed (content, or an entry added or removed in it). */
  changed(path: string): void;
  /** Something was created, deleted or renamed in `directories`: the resource list changed. */
  listChanged(directories: string[]): void;
  /** The directory budget ran out; later directories go unwatched. */
  overBudget?(limit: number): void;
}

export interface AreaWatcher {
  /** Settles once the directories there at the start are watched. */
  readonly ready: Promise<void>;
  readonly watchedDirectories: number;
  close(): void;
}

const CHANGE_DELAY_MS = 50;
const LIST_DELAY_MS = 200;
/** Paths one batch notifies, and renamed paths it looks at again; the rest wait for the next batch. */
const BATCH_PATHS = 256;
/** Paths waiting at most: past it, a flood of new names is dropped rather than held. */
const MAX_WAITING = 10_000;

/**
 * Watches the allowed areas for resource subscriptions: one non-recursive fs.watch per
 * directory (inotify on Linux), at most `maxDirectories`, shallowest first, never through
 * symbolic links or into .git / node_modules.
 *
 * Events are batched: each only marks its path, and every CHANGE_DELAY_MS one batch
 * notifies each marked path once and looks (lstat) once at each path renamed meanwhile.
 * An editor's save costs one notification; a directory flipped thousands of times a
 * second costs a few calls per batch, not thousands that would starve the reads.
 */
export function watchAreas(areas: readonly Area[], events: WatchEvents, maxDirectories: number): AreaWatcher {
  const watchers = new Map<string, FSWatcher>();
  const dirty = new Set<string>();
  const renamed = new Set<string>();
  /** Directories whose names changed since the last list change was told. */
  const listed = new Set<string>();
  let batchTimer: ReturnType<typeof setTimeout> | undefined;
  let listTimer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;
  let warned = false;

  /** Takes up to BATCH_PATHS paths out of a set. */
  const take = (set: Set<string>) => {
    const out: string[] = [];
    for (const path of set) {
      if (out.length === BATCH_PATHS) break;
      out.push(path);
    }
    for (const path of out) set.delete(path);
    return out;
  };

  const flush = () => {
    batchTimer = undefined;
    const changedPaths = take(dirty);
    const renamedPaths = take(renamed);
    if (dirty.size > 0 || renamed.size > 0) batchTimer = setTimeout(flush, CHANGE_DELAY_MS);
    for (const path of changedPaths) events.changed(path);
    // A rename is a creation or a deletion: watch a new directory, forget a removed one.
    for (const path of renamedPaths) {
      lstat(path).then(
        (info) => {
          if (info.isDirectory() && !SKIPPED_DIRECTORIES.has(basename(path))) void addTree(path);
          else unwatch(path);
        },
        () => unwatch(path),
      );
    }
  };

  const mark = (set: Set<string>, path: string) => {
    if (closed || (set.size >= MAX_WAITING && !set.has(path))) return;
    set.add(path);
    batchTimer ??= setTimeout(flush, CHANGE_DELAY_MS);
  };

  const listChanged = (dir: string) => {
    if (listed.size < MAX_WAITING) listed.add(dir);
    listTimer ??= setTimeout(() => {
      listTimer = undefined;
      const directories = [...listed];
      listed.clear();
      events.listChanged(directories);
    }, LIST_DELAY_MS);
  };

  const unwatch = (dir: string) => {
    for (const [path, watcher] of watchers) {
      if (path === dir || path.startsWith(dir + sep)) {
        watcher.close();
        watchers.delete(path);
      }
    }
  };

  const add = (dir: string): boolean => {
    if (closed || watchers.has(dir)) return true;
    if (watchers.size >= maxDirectories) {
      if (!warned) events.overBudget?.(maxDirectories);
      warned = true;
      return false;
    }
    try {
      const watcher = watch(dir, { persistent: false }, (type, name) => {
        if (name) onEvent(dir, type, name.toString());
      });
      watcher.on("error", () => unwatch(dir));
      watchers.set(dir, watcher);
      return true;
    } catch {
      return true; // Unreadable or gone: nothing to watch there.
    }
  };

  const addTree = async (dir: string) => {
    if (!add(dir)) return;
    for await (const entry of walkBreadthFirst(dir)) {
      if (closed) return;
      if (entry.kind === "directory" && !entry.skipped && !add(entry.path)) return;
    }
  };

  const onEvent = (dir: string, type: string, name: string) => {
    const path = join(dir, name);
    mark(dirty, path);
    if (type !== "rename") return;
    mark(dirty, dir);
    mark(renamed, path);
    listChanged(dir);
  };

  const ready = Promise.all(areas.map((area) => addTree(area.real))).then(() => undefined);

  return {
    ready,
    get watchedDirectories() {
      return watchers.size;
    },
    close() {
      closed = true;
      for (const watcher of watchers.values()) watcher.close();
      watchers.clear();
      if (batchTimer) clearTimeout(batchTimer);
      if (listTimer) clearTimeout(listTimer);
      dirty.clear();
      renamed.clear();
      listed.clear();
    },
  };
}
