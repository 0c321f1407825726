import { lstatSync, readdirSync, type Stats } from "node:fs";
import { join } from "node:path";

/** How many entries of the module's folder are looked at, at most, to account for a hard link's names. */
export const MAX_ENTRIES = 50_000;

/**
 * Whether every name of a file lies inside `root`. A hard link is the same file under
 * another name, so a link made from inside the folder to ~/.ssh/id_ed25519 (or by a
 * cloned repository's checkout on the same disk) is that key, and no path check sees it:
 * only its count of names (nlink) tells. A file with one name is inside when its path is;
 * one with more is inside only when all of them are found in `root` (its entries are
 * counted once, on first need, without following links). A folder too large to count
 * proves nothing: the file is then not taken.
 */
export function hardLinkCheck(root: string): (stats: Stats) => boolean {
  let names: Map<string, number> | undefined;
  let complete = true;
  return (stats) => {
    if (stats.nlink <= 1) return true;
    if (names === undefined) ({ names, complete } = countNames(root));
    return complete && (names.get(`${stats.dev}:${stats.ino}`) ?? 0) >= stats.nlink;
  };
}

/** The names each file with several names has under `root`, and whether every entry was seen. */
function countNames(root: string): { names: Map<string, number>; complete: boolean } {
  const names = new Map<string, number>();
  let seen = 0;
  const pending = [root];
  while (pending.length > 0) {
    const dir = pending.pop() as string;
    let entries: string[];
    try {
      entries = readdirSync(dir);
    } catch {
      continue; // unreadable: a name in it is not counted, so the file is not taken
    }
    for (const entry of entries) {
      if (++seen > MAX_ENTRIES) return { names, complete: false };
      const path = join(dir, entry);
      let stats: Stats;
      try {
        stats = lstatSync(path);
      } catch {
        continue;
      }
      if (stats.isDirectory()) pending.push(path);
      else if (stats.isFile() && stats.nlink > 1) {
        const key = `${stats.dev}:${stats.ino}`;
        names.set(key, (names.get(key) ?? 0) + 1);
      }
    }
  }
  return { names, complete: true };
}
