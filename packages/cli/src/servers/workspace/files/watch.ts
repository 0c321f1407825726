import { type FSWatcher, watch } from "node:fs";
import { lstat } from "node:fs/promises";
import { basename, join, sep } from "node:path";
import { SKIPPED_DIRECTORIES } from "../options.js";
import type { Area } from "../roots/area.js";
import { walkBreadthFirst } from "./walk.js";

export interface WatchEvents {
  /** A file or directory changed (content, or an entry added or removed in it). */
  changed(path: string): void;
  /** Something was created, deleted or renamed: the resource list changed. */
  listChanged(): void;
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

/**
 * Watches the allowed areas for resource subscriptions: one non-recursive fs.watch per
 * directory (inotify on Linux), at most `maxDirectories`, shallowest first, never through
 * symbolic links or into .git / node_modules. Bursts of events for one path (an editor's
 * save) are coalesced.
 */
export function watchAreas(areas: readonly Area[], events: WatchEvents, maxDirectories: number): AreaWatcher {
  const watchers = new Map<string, FSWatcher>();
  const pending = new Map<string, ReturnType<typeof setTimeout>>();
  let listTimer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;
  let warned = false;

  const changed = (path: string) => {
    if (pending.has(path)) return;
    pending.set(
      path,
      setTimeout(() => {
        pending.delete(path);
        events.changed(path);
      }, CHANGE_DELAY_MS),
    );
  };

  const listChanged = () => {
    listTimer ??= setTimeout(() => {
      listTimer = undefined;
      events.listChanged();
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
    changed(path);
    if (type !== "rename") return;
    changed(dir);
    listChanged();
    // A rename is a creation or a deletion: watch a new directory, forget a removed one.
    lstat(path).then(
      (info) => {
        if (info.isDirectory() && !SKIPPED_DIRECTORIES.has(basename(path))) void addTree(path);
      },
      () => unwatch(path),
    );
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
      for (const timer of pending.values()) clearTimeout(timer);
      pending.clear();
      if (listTimer) clearTimeout(listTimer);
    },
  };
}
