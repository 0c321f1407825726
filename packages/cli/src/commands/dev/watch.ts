import { type FSWatcher, watch } from "node:fs";
import { join } from "node:path";

/** Folders whose changes never reload: installed packages, version control, editors' and tools' state. */
const IGNORED = /(^|[\\/])(node_modules|\.git|\.[^\\/]*)([\\/]|$)/;

/**
 * Watches `dirs` (each with its subfolders) and calls `onChange` with the files that
 * changed, once a burst of events has been quiet for `quietMs` (an editor's save is
 * several events: write, rename, chmod). Returns a function that stops watching.
 */
export function watchFiles(dirs: string[], onChange: (files: string[]) => void, quietMs = 80): () => void {
  const changed = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  const watchers: FSWatcher[] = dirs.map((dir) =>
    watch(dir, { recursive: true }, (_event, name) => {
      if (name === null || IGNORED.test(String(name))) return;
      changed.add(join(dir, String(name)));
      clearTimeout(timer);
      timer = setTimeout(() => {
        const files = [...changed];
        changed.clear();
        onChange(files);
      }, quietMs);
    }),
  );
  return () => {
    clearTimeout(timer);
    for (const watcher of watchers) watcher.close();
  };
}
