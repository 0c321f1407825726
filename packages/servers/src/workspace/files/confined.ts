import { constants, type Dirent, existsSync, type Stats } from "node:fs";
import { type FileHandle, lstat, mkdir, open, readdir, readlink, realpath, rename, stat } from "node:fs/promises";
import { basename, dirname, join, relative, sep } from "node:path";
import { WorkspaceError } from "../errors.js";
import { type Area, areaOf } from "../roots/area.js";

/**
 * Opening what the sandbox checked, and nothing else. guardPath() resolves a path by name,
 * but a local process may swap a directory on that path for a symbolic link out of the
 * root between the check and the use. So every use goes through a file descriptor, and
 * the descriptor is asked where it really is:
 *
 * - On Linux, /proc/self/fd/N names the open file itself: its target is the file's real
 *   path as the kernel sees it, and a path through it ("/proc/self/fd/N/name") starts at
 *   the opened directory, as openat() would. Files are opened, created, renamed and made
 *   inside a parent directory that was opened and verified first, so no component can be
 *   swapped after the check.
 * - Elsewhere (no /proc/self/fd, and Node.js has no openat()), the opened file's device
 *   and inode must match those of its path resolved after the open, inside an allowed
 *   area. That catches a swap made once, but every look is by name, so a process flipping
 *   a directory fast can still, rarely, line its flips up with the looks: there the check
 *   narrows the race rather than closing it (docs/workspace.md says so).
 */

const PROC_FD = process.platform === "linux" && existsSync("/proc/self/fd") ? "/proc/self/fd" : undefined;

const sameFile = (a: Stats, b: Stats) => a.dev === b.dev && a.ino === b.ino;

const escaped = (shown: string) =>
  new WorkspaceError(
    `Access denied: ${shown} changed while it was being opened and led outside the allowed directories`,
  );

/** A descriptor and where it really is, verified inside an area. */
export interface Confined {
  handle: FileHandle;
  real: string;
  area: Area;
}

/** Whether a verified real path lies in a `.git` directory of its area. */
export function inGitDirectory(area: Area, real: string): boolean {
  return relative(area.real, real).split(sep).includes(".git");
}

/** Refuses the entry `name` of a verified directory when it is, or lies in, a .git directory. */
const refuseGit = (dir: Confined, name: string, shown: string) => {
  if (inGitDirectory(dir.area, join(dir.real, name))) {
    // Worded apart from guard.ts's refusal: this is the second lock, on what was really opened.
    throw new WorkspaceError(`Refused: ${shown} leads into a .git directory, which is never written`);
  }
};

/** Linux's O_PATH: a descriptor to look at, not to read, so opening a FIFO or a device does nothing. */
const O_PATH = 0o10000000;

/**
 * The descriptor-verified operations, through `procFd` (Linux's /proc/self/fd) or, without
 * it, by device and inode. The server uses the best this system has (below); tests run
 * the portable way on Linux too.
 */
export function createConfinement(procFd: string | undefined) {
  /**
   * Where an open descriptor really is, checked to lie inside an area: its real path and
   * device/inode must agree with what `handle.stat()` says. Closes the handle and throws otherwise.
   */
  async function verify(areas: readonly Area[], handle: FileHandle, named: string, shown: string): Promise<Confined> {
    try {
      const opened = await handle.stat();
      const real = procFd ? await readlink(`${procFd}/${handle.fd}`) : await realpath(named);
      const area = real.startsWith("/") || !procFd ? areaOf(areas, real) : undefined;
      if (!area || !sameFile(opened, await stat(real))) throw escaped(shown);
      return { handle, real, area };
    } catch (error) {
      await handle.close().catch(() => undefined);
      if ((error as NodeJS.ErrnoException).code === "ENOENT") throw escaped(shown);
      throw error;
    }
  }

  /** Opens a directory, never through a link in its last component, and verifies it. */
  async function openDirectory(areas: readonly Area[], real: string, shown: string): Promise<Confined> {
    let handle: FileHandle;
    try {
      handle = await open(real, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
    } catch (error) {
      // O_NOFOLLOW with O_DIRECTORY reports a link as "not a directory": say what it is.
      if (
        (error as NodeJS.ErrnoException).code === "ENOTDIR" &&
        (await lstat(real).catch(() => undefined))?.isSymbolicLink()
      )
        throw new WorkspaceError(`Refused: ${shown} is (or became) a symbolic link on the way`);
      throw error;
    }
    return verify(areas, handle, real, shown);
  }

  /** A path inside a verified directory: through the descriptor on Linux, by name elsewhere. */
  const within = (dir: Confined, name: string) =>
    procFd ? `${procFd}/${dir.handle.fd}/${name}` : join(dir.real, name);

  /**
   * Opens `real` (never following a link in its last component) in its verified parent
   * directory, and verifies the file too. `flags` may create it, with `write.mode`; for
   * writing, a parent in a .git directory is refused before anything is opened.
   */
  async function openInside(
    areas: readonly Area[],
    real: string,
    flags: number,
    shown: string,
    write?: { mode: number },
  ): Promise<Confined> {
    const name = basename(real);
    const parent = await openDirectory(areas, dirname(real), shown);
    try {
      if (write) refuseGit(parent, name, shown);
      const handle = await open(within(parent, name), flags | constants.O_NOFOLLOW, write?.mode);
      return await verify(areas, handle, join(parent.real, name), shown);
    } finally {
      await parent.handle.close();
    }
  }

  /** The metadata of `real` (not following a link in its last component), verified inside the areas. */
  async function statInside(areas: readonly Area[], real: string, shown: string): Promise<Stats> {
    if (!procFd) {
      const info = await lstat(real);
      const resolved = await realpath(real);
      if (!areaOf(areas, resolved) || !sameFile(info, await lstat(resolved))) throw escaped(shown);
      return info;
    }
    const opened = areas.some((area) => area.real === real)
      ? await openDirectory(areas, real, shown)
      : await (async () => {
          const parent = await openDirectory(areas, dirname(real), shown);
          try {
            const handle = await open(within(parent, basename(real)), O_PATH | constants.O_NOFOLLOW);
            return await verify(areas, handle, real, shown);
          } finally {
            await parent.handle.close();
          }
        })();
    try {
      return await opened.handle.stat();
    } finally {
      await opened.handle.close();
    }
  }

  /** The entries of a verified directory: read through its descriptor on Linux. */
  async function readDirectoryInside(areas: readonly Area[], real: string, shown: string): Promise<Dirent[]> {
    const dir = await openDirectory(areas, real, shown);
    try {
      if (procFd) return await readdir(`${procFd}/${dir.handle.fd}`, { withFileTypes: true });
      const entries = await readdir(dir.real, { withFileTypes: true });
      // By name: the directory read must still be the one verified.
      if (!sameFile(await dir.handle.stat(), await stat(dir.real))) throw escaped(shown);
      return entries;
    } finally {
      await dir.handle.close();
    }
  }

  /**
   * Renames the entry `from` (its last name not resolved) to `to`, each in its verified
   * parent directory, neither of which may be in a .git directory.
   */
  async function renameInside(
    areas: readonly Area[],
    from: string,
    to: string,
    shown: { from: string; to: string },
  ): Promise<void> {
    const source = await openDirectory(areas, dirname(from), shown.from);
    try {
      refuseGit(source, basename(from), shown.from);
      const target = await openDirectory(areas, dirname(to), shown.to);
      try {
        refuseGit(target, basename(to), shown.to);
        await rename(within(source, basename(from)), within(target, basename(to)));
      } finally {
        await target.handle.close();
      }
    } finally {
      await source.handle.close();
    }
  }

  /**
   * Makes the directory `real` and its missing parents, one at a time, each inside the
   * verified one above it; none in a .git directory.
   */
  async function makeDirectoryInside(areas: readonly Area[], real: string, shown: string): Promise<void> {
    const missing: string[] = [];
    let at = real;
    for (;;) {
      const info = await stat(at).catch(() => undefined);
      if (info) break;
      missing.unshift(basename(at));
      if (dirname(at) === at) break;
      at = dirname(at);
    }
    let dir = await openDirectory(areas, at, shown);
    try {
      for (const name of missing) {
        refuseGit(dir, name, shown);
        await mkdir(within(dir, name)).catch((error: NodeJS.ErrnoException) => {
          if (error.code !== "EEXIST") throw error;
        });
        const next = await openDirectory(areas, procFd ? within(dir, name) : join(dir.real, name), shown);
        await dir.handle.close();
        dir = next;
      }
    } finally {
      await dir.handle.close().catch(() => undefined);
    }
  }

  return { openDirectory, openInside, statInside, readDirectoryInside, renameInside, makeDirectoryInside };
}

export type Confinement = ReturnType<typeof createConfinement>;

/** Whether the race-free (descriptor-relative) way is available here. */
export const descriptorRelative = PROC_FD !== undefined;

/** The way the server uses: descriptor-relative where /proc/self/fd exists. */
export const confinement: Confinement = createConfinement(PROC_FD);
export const { openDirectory, openInside, statInside, readDirectoryInside, renameInside, makeDirectoryInside } =
  confinement;

/** The way used where /proc/self/fd is missing (macOS, the BSDs, Windows). */
export const portableConfinement: Confinement = createConfinement(undefined);
