import { sep } from "node:path";
import { isInside, realLocation } from "../../files/real-location.js";

/** Until the module's import graph is known (its first build failed, or esbuild is missing): its source files. */
const SOURCE = /\.([cm]?[jt]sx?|json)$/;

/**
 * Whether a change to `file` reloads the module: a file it imports (its graph as last
 * built) or a folder holding some, or anything under a path named with --watch. What else changes beside it (a log
 * the server appends to, a database it writes, an editor's swap file) does not.
 */
export function reloadsFor(
  imports: () => ReadonlySet<string> | undefined,
  watched: readonly string[],
): (file: string) => boolean {
  const roots = watched.map(realLocation);
  return (file) => {
    const real = realLocation(file);
    if (roots.some((root) => isInside(real, root))) return true;
    const graph = imports();
    if (!graph) return SOURCE.test(file);
    // A folder holding imported files, removed or made again (a branch switched): the
    // folder's own event may be the only one seen, its files' watch gone with it.
    return graph.has(real) || [...graph].some((imported) => imported.startsWith(real + sep));
  };
}
