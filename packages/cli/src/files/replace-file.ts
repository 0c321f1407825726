import { randomBytes } from "node:crypto";
import {
  closeSync,
  fchmodSync,
  fchownSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  renameSync,
  type Stats,
  statSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { basename, dirname, join, resolve } from "node:path";

/** The file changed between the caller's reading it and its replacement: nothing was written. */
export class ChangedMeanwhile extends Error {
  override name = "ChangedMeanwhile";
}

/**
 * The file a path names: the path itself, or, when it is a link (a dotfiles folder's, say),
 * the file the link points to, so that replacing it keeps the link. A link to nothing is
 * refused (writing there would create a file the user may not know of), and so is a folder.
 */
export function fileBehind(path: string): { file: string; link: boolean } {
  let link = false;
  try {
    link = lstatSync(path).isSymbolicLink();
  } catch {
    return { file: path, link: false }; // not there yet
  }
  let file = path;
  if (link)
    try {
      file = realpathSync(path);
    } catch {
      throw new Error(`${path} is a link to ${resolve(dirname(path), readlinkSync(path))}, which does not exist`);
    }
  if (!statSync(file).isFile()) throw new Error(`${path} is ${link ? `a link to ${file}, ` : ""}not a file`);
  return { file, link };
}

export interface ReplaceOptions {
  /**
   * The text the caller read and edited (undefined: there was no file). If the file holds
   * something else when it is to be replaced (its own program wrote it meanwhile), nothing
   * is written and ChangedMeanwhile is thrown: read it again and redo the edit.
   */
  expected?: string | undefined;
  /** Where to keep the file as it was (replaced, not written through a link there). */
  backup?: string;
  /** The mode of a file made anew (default: 0666 less the umask, as any new file). */
  newMode?: number;
}

/**
 * Replaces a file in one step for whoever reads it: the new content is written to a new
 * temporary file in the same folder (created afresh, so never through a link), with the old
 * file's permissions and owner (a 0600 file stays 0600), and renamed over it. A reader sees
 * the old file or the new one, never half of one. A read-only file is refused. `path` must
 * be the file itself: see fileBehind.
 */
export function replaceFile(path: string, content: string | Uint8Array, options: ReplaceOptions = {}): void {
  mkdirSync(dirname(path), { recursive: true });
  const old = statOrUndefined(path);
  // A rename would replace a file its owner made read-only, which a write would not.
  if (old && (old.mode & 0o222) === 0) throw new Error(`${path} is read-only: make it writable to have it changed`);
  const temporary = writeTemporary(path, content, old, options.newMode);
  try {
    if ("expected" in options && textOrUndefined(path) !== options.expected)
      throw new ChangedMeanwhile(`${path} changed while mcpkit was writing it`);
    if (options.backup !== undefined && old) {
      const kept = writeTemporary(options.backup, readFileSync(path), old);
      try {
        renameSync(kept, options.backup);
      } catch (error) {
        unlinkSync(kept);
        throw error;
      }
    }
    renameSync(temporary, path);
  } catch (error) {
    try {
      unlinkSync(temporary);
    } catch {
      // renamed already, or never made
    }
    throw error;
  }
}

const textOrUndefined = (path: string): string | undefined => {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
};

const statOrUndefined = (path: string): Stats | undefined => {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
};

/** A new file beside `path` holding `content`, with `like`'s mode and owner when given, else `mode`. */
function writeTemporary(path: string, content: string | Uint8Array, like: Stats | undefined, mode = 0o666): string {
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}-${randomBytes(4).toString("hex")}.tmp`);
  // "wx": O_CREAT | O_EXCL, which fails on anything already there, a link included.
  const fd = openSync(temporary, "wx", like ? like.mode & 0o7777 : mode);
  try {
    if (like) {
      // The umask may have narrowed the mode asked for: set it as the old file had it.
      fchmodSync(fd, like.mode & 0o7777);
      // Run as root (sudo) on a user's file, the file stays the user's.
      if (process.getuid?.() === 0) fchownSync(fd, like.uid, like.gid);
    }
    writeFileSync(fd, content);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    unlinkSync(temporary);
    throw error;
  }
  closeSync(fd);
  return temporary;
}
