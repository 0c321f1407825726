import { copyFileSync, lstatSync, mkdirSync, readdirSync, realpathSync, type Stats, statSync } from "node:fs";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { UsageError } from "../usage-error.js";

/** A file or folder left out of a bundle, and why. */
export interface LeftOut {
  /** Relative to the module's folder, with forward slashes. */
  path: string;
  why: string;
}

/**
 * What a folder given with --include holds that a bundle leaves out: what may hold secrets,
 * and what is no part of a running server (what @anthropic-ai/mcpb's pack leaves out is
 * much the same). A file named with --include itself is taken as it is.
 */
const LEFT_OUT: [RegExp, string][] = [
  [/^\.env(\..+)?$/, "it may hold secrets"],
  [/^\.(npmrc|yarnrc|yarnrc\.yml|netrc|pypirc|pgpass)$/, "it may hold credentials"],
  [/^id_(rsa|dsa|ecdsa|ed25519)$|\.(pem|key|p12|pfx)$/, "it may be a private key"],
  [/^\.(ssh|gnupg|aws|git|hg|svn)$/, "a folder of credentials or version control"],
  [/^(\.DS_Store|Thumbs\.db|desktop\.ini)$/, "the system's, not yours"],
  [/\.sw[a-p]$|~$|^\.#|^#.*#$/, "an editor's file"],
  [/\.log$/, "a log"],
  [/\.mcpb$/, "a bundle"],
  [/^node_modules$/, "installed packages: the bundle holds those the server imports, built in"],
];

/**
 * Copies the files and folders the module reads beside itself (--include, relative to the
 * module's folder) to the same places under `into`. Only files inside the module's folder
 * go in: a link is followed only when what it points to is inside it too (a `secrets ->
 * ~/.ssh` link, or one to /etc/passwd, is left out). Inside a folder, what LEFT_OUT names is
 * left out, and so is what is not a plain file (a pipe, a socket) or whose name an archive
 * cannot hold. Returns what was left out.
 */
export function copyIncluded(paths: string[], moduleDir: string, into: string): LeftOut[] {
  const root = realpathSync(moduleDir);
  const inside = (real: string) => real === root || real.startsWith(root + sep);
  const leftOut: LeftOut[] = [];
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
      }
    } catch {
      return "a link to nothing";
    }
    const rule = LEFT_OUT.find(([pattern]) => pattern.test(name));
    if (!given && rule) return rule[1];
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
    mkdirSync(dirname(to), { recursive: true });
    copyFileSync(from, to);
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
  return leftOut.filter((l) => !named.has(l.path));
}
