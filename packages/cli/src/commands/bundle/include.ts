import { copyFileSync, lstatSync, mkdirSync, readdirSync, realpathSync, type Stats, statSync } from "node:fs";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { UsageError } from "../usage-error.js";
import { hardLinkCheck } from "./hard-links.js";
import { contentRule, nameRule } from "./left-out.js";

/** A file or folder left out of a bundle, and why. */
export interface LeftOut {
  /** Relative to the module's folder, with forward slashes. */
  path: string;
  why: string;
}

/** What the --include paths brought in, and what they held that stayed out. */
export interface Included {
  /** The files copied, relative to the module's folder, with forward slashes, in the order copied. */
  files: string[];
  leftOut: LeftOut[];
}

/**
 * Copies the files and folders the module reads beside itself (--include, relative to the
 * module's folder) to the same places under `into`. Only files inside the module's folder
 * go in: a link is followed only when what it points to is inside it too (a `secrets ->
 * ~/.ssh` link, or one to /etc/passwd, is left out), and a hard link only when all its
 * names are (hard-links.ts). Inside a folder, what may hold secrets is left out, by its name
 * or by what it holds (left-out.ts), and so is what is not a plain file (a pipe, a socket)
 * or whose name an archive cannot hold. A file named with --include itself is taken as it
 * is, unless it leads out of the folder: that is refused.
 */
export function copyIncluded(paths: string[], moduleDir: string, into: string): Included {
  const root = realpathSync(moduleDir);
  const inside = (real: string) => real === root || real.startsWith(root + sep);
  const allNamesInside = hardLinkCheck(root);
  const leftOut: LeftOut[] = [];
  const files: string[] = [];
  const shown = (path: string) => relative(moduleDir, path).split(sep).join("/");
  const visited = new Set<string>();
  const named = new Set<string>();

  const copy = (from: string, to: string, given: boolean): void => {
    const why = copyOne(from, to, given);
    if (why !== undefined) leftOut.push({ path: shown(from), why });
  };
  /** Copies a file or folder; says why not when it leaves it out. */
  const copyOne = (from: string, to: string, given: boolean): string | undefined => {
    const name = basename(from);
    let stats: Stats;
    try {
      stats = lstatSync(from);
      if (stats.isSymbolicLink()) {
        const real = realpathSync(from);
        if (!inside(real)) return `a link to ${real}, outside ${moduleDir}`;
        stats = statSync(from);
        // Judged where it leads as well: `notes.txt -> ../.env` is the .env, `cloud -> ../.aws` the folder.
        const led = given ? undefined : leadsTo(relative(root, real), stats.isDirectory());
        if (led) return `a link to ${led.path}: ${led.why}`;
      }
    } catch {
      return "a link to nothing";
    }
    const rule = nameRule(name, stats.isDirectory());
    if (!given && rule) return rule.why;
    if (/[\\\p{Cc}]/u.test(name)) return "its name holds a \\ or a control character, which an archive cannot hold";
    if (stats.isDirectory()) {
      const real = realpathSync(from);
      if (visited.has(real)) return "a link to a folder already in the bundle";
      visited.add(real);
      mkdirSync(to, { recursive: true });
      for (const entry of readdirSync(from).sort()) copy(join(from, entry), join(to, entry), false);
      return undefined;
    }
    if (!stats.isFile()) return "not a plain file";
    if (!allNamesInside(stats)) {
      const why = hardLinkOut(stats, moduleDir);
      if (given)
        throw new UsageError(`--include ${shown(from)}: ${why}: a bundle takes only files inside the module's folder`);
      return why;
    }
    const held = given ? undefined : contentRule(from);
    if (held) return held;
    mkdirSync(dirname(to), { recursive: true });
    copyFileSync(from, to);
    files.push(shown(from));
    return undefined;
  };

  for (const path of paths) {
    const from = resolve(moduleDir, path);
    const to = resolve(into, path);
    if (from === resolve(moduleDir))
      throw new UsageError(
        `--include ${path}: name the files or folders the module reads, not its whole folder (its code is in the bundle already)`,
      );
    if (!to.startsWith(into + sep) || !from.startsWith(resolve(moduleDir) + sep))
      throw new UsageError(`--include ${path}: it must be inside the module's folder (${moduleDir})`);
    let real: string;
    try {
      lstatSync(from);
      real = realpathSync(from);
    } catch {
      throw new UsageError(`--include ${path}: no such file or folder beside ${moduleDir}`);
    }
    if (!inside(real))
      throw new UsageError(
        `--include ${path}: it leads to ${real}, outside the module's folder (${moduleDir}): a bundle takes only files inside it`,
      );
    copy(from, to, true);
    named.add(shown(from));
  }
  // A file left out of a folder, then named itself, is in.
  return { files, leftOut: leftOut.filter((l) => !named.has(l.path)) };
}

/** The rule the path a link leads to (relative to the module's folder) falls under, by any of its names. */
function leadsTo(path: string, folder: boolean): { path: string; why: string } | undefined {
  const names = path.split(sep);
  for (const [i, name] of names.entries()) {
    const rule = nameRule(name, i < names.length - 1 || folder);
    if (rule) return { path: names.join("/"), why: rule.why };
  }
  return undefined;
}

const hardLinkOut = (stats: Stats, moduleDir: string) =>
  `a hard link: the same file has ${stats.nlink} names, and not all of them are inside ${moduleDir}`;
