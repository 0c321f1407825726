import { type FSWatcher, readdirSync, statSync, watch } from "node:fs";
import { join, sep } from "node:path";

/** Folders whose changes never reload: installed packages, version control, editors' and tools' state. */
const IGNORED = /(^|[\\/])(node_modules|\.git|\.[^\\/]*)([\\/]|$)/;

/** How many folders a tree's watch follows at most (Linux: one inotify watch each, a limited resource). */
export const MAX_FOLDERS = 2000;

export interface WatchOptions {
  /** How long a burst of events must have been quiet before onChange (ms). */
  quietMs?: number;
  /** Called once if a tree has more folders than MAX_FOLDERS: the others are not watched. */
  onTooMany?: (root: string, max: number) => void;
  /**
   * Whether a change to this file counts (default: every file). One that does not count
   * neither calls onChange nor delays it: a log the server appends to every few ms would
   * otherwise keep a burst from ever going quiet.
   */
  counts?: (file: string) => boolean;
}

/**
 * Watches `dirs` (each with its subfolders) and calls `onChange` with the files that
 * changed, once a burst of events has been quiet for `quietMs` (an editor's save is
 * several events: write, rename, chmod; a checkout, many). Returns a function that stops watching.
 */
export function watchFiles(
  dirs: string[],
  onChange: (files: string[]) => void,
  { quietMs = 80, onTooMany, counts = () => true }: WatchOptions = {},
): () => void {
  const changed = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  const changedIn = (dir: string, name: string) => {
    const file = join(dir, name);
    if (!counts(file)) return;
    changed.add(file);
    clearTimeout(timer);
    timer = setTimeout(() => {
      const files = [...changed];
      changed.clear();
      onChange(files);
    }, quietMs);
  };
  const watchers = dirs.map((dir) =>
    process.platform === "linux" ? watchTree(dir, changedIn, onTooMany) : watchRecursive(dir, changedIn),
  );
  return () => {
    clearTimeout(timer);
    for (const stop of watchers) stop();
  };
}

type Changed = (dir: string, name: string) => void;

/** Where the platform's own recursive watch holds (macOS, Windows). */
function watchRecursive(dir: string, changed: Changed): () => void {
  const watcher = watch(dir, { recursive: true }, (_event, name) => {
    if (name !== null && !IGNORED.test(String(name))) changed(dir, String(name));
  });
  return () => watcher.close();
}

/**
 * Linux: one watch per folder. Node 20's recursive watch there follows each file, and loses
 * a file that an editor saves by writing a copy and renaming it over the original (vim, sed
 * -i, JetBrains' safe write): later saves of it went unseen. A folder's watch sees the
 * rename by the file's name. New folders are watched as they appear; a folder removed and
 * made again (a branch switched, a generator's output) is watched anew, its old watch being
 * dead. At most MAX_FOLDERS folders are watched: a module in a home folder must not take
 * every inotify watch the user has (other programs need them too).
 */
function watchTree(root: string, changed: Changed, onTooMany: WatchOptions["onTooMany"]): () => void {
  const watchers = new Map<string, FSWatcher>();
  let warned = false;
  /** Stops watching a folder and those inside it. */
  const drop = (dir: string) => {
    for (const [path, watcher] of watchers)
      if (path === dir || path.startsWith(dir + sep)) {
        watcher.close();
        watchers.delete(path);
      }
  };
  const add = (dir: string) => {
    if (watchers.has(dir)) return;
    if (watchers.size >= MAX_FOLDERS) {
      if (!warned) onTooMany?.(root, MAX_FOLDERS);
      warned = true;
      return;
    }
    let watcher: FSWatcher;
    try {
      watcher = watch(dir, (_event, name) => {
        if (name === null || IGNORED.test(String(name))) return;
        // The folder itself is gone: its parent's watch says so.
        if (!isFolder(dir)) return drop(dir);
        const path = join(dir, String(name));
        // An event on a folder's own name is the folder made, removed or renamed: watched anew.
        if (watchers.has(path)) drop(path);
        if (isFolder(path)) add(path);
        changed(dir, String(name));
      });
    } catch {
      return; // gone before it could be watched: its parent's watch reports it
    }
    // A watched folder that is removed ends its watch.
    watcher.on("error", () => drop(dir));
    watchers.set(dir, watcher);
    for (const entry of safeList(dir)) if (entry.isDirectory() && !IGNORED.test(entry.name)) add(join(dir, entry.name));
  };
  add(root);
  return () => {
    for (const watcher of watchers.values()) watcher.close();
    watchers.clear();
  };
}

const isFolder = (path: string) => {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
};

const safeList = (dir: string) => {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
};
