import { realpath } from "node:fs/promises";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { fsError, WorkspaceError } from "../errors.js";
import { type Area, areaOf } from "../roots/area.js";
import { isInside } from "../roots/inside.js";

/** A path argument checked against the allowed areas. */
export interface Guarded {
  /** As the client named it (for messages). */
  shown: string;
  /** Absolute, as written (links not resolved). */
  absolute: string;
  /** Where it really is: symbolic links resolved (for a path to be created, those of its parent). */
  real: string;
  /**
   * The directory entry itself: the parent resolved, the last name not (a symbolic link
   * stays the link). What a move or rename acts on.
   */
  entry: string;
  /** The area it lies in. */
  area: Area;
  /** Whether it exists now. */
  exists: boolean;
}

const list = (areas: readonly Area[]) => areas.map((a) => a.path).join(", ");

/**
 * Resolves a path argument and checks it stays inside an allowed area, twice: as written
 * (so "../" is refused with a plain message) and after resolving symbolic links (so a
 * link pointing out of a root is refused too). Relative paths start at the first area.
 * With `mayCreate`, a path that does not exist yet is checked through its nearest existing
 * parent; otherwise it must exist.
 */
export async function guardPath(
  areas: readonly Area[],
  input: unknown,
  options: { mayCreate?: boolean } = {},
): Promise<Guarded> {
  const first = areas[0];
  if (!first) {
    throw new WorkspaceError(
      "No directory is accessible: the client's roots do not overlap the directories this server was started with",
    );
  }
  if (typeof input !== "string" || input === "") throw new WorkspaceError("A path is required");
  if (input.includes("\0")) throw new WorkspaceError("Refused: the path contains a NUL byte");
  let named = input;
  if (input.startsWith("file:")) {
    try {
      named = fileURLToPath(input);
    } catch (error) {
      throw new WorkspaceError(`Refused: ${input} is not a local file URI (${(error as Error).message})`);
    }
  }
  const absolute = isAbsolute(named) ? resolve(named) : resolve(first.path, named);
  const lexical = areas.find((a) => isInside(a.path, absolute) || isInside(a.real, absolute));
  if (!lexical) throw new WorkspaceError(`Access denied: ${input} is outside the allowed directories (${list(areas)})`);

  let real: string;
  let exists = true;
  try {
    real = await realpath(absolute);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw fsError(error, input);
    if (!options.mayCreate) throw new WorkspaceError(`No such file or directory: ${input}`);
    exists = false;
    real = await realParent(absolute, input);
  }
  const area = areaOf(areas, real);
  if (!area) {
    throw new WorkspaceError(
      `Access denied: ${input} leads to ${real} through a symbolic link, outside the allowed directories (${list(areas)})`,
    );
  }
  let entry = real;
  if (exists && absolute !== dirname(absolute)) {
    const parent = await realpath(dirname(absolute)).catch((error: unknown) => {
      throw fsError(error, input);
    });
    entry = join(parent, basename(absolute));
    if (!areaOf(areas, entry)) throw new WorkspaceError(`Access denied: ${input} is outside the allowed directories`);
  }
  return { shown: input, absolute, real, entry, area, exists };
}

/** A path that does not exist yet: its nearest existing ancestor, resolved, plus the rest. */
async function realParent(absolute: string, shown: string): Promise<string> {
  const rest: string[] = [];
  let at = absolute;
  for (;;) {
    rest.unshift(basename(at));
    at = dirname(at);
    try {
      return join(await realpath(at), ...rest);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT" || at === dirname(at)) throw fsError(error, shown);
    }
  }
}

/**
 * Writes never go into a `.git` directory: its config can name programs git runs
 * (core.fsmonitor, filters), so a file write there would become code execution.
 */
export function refuseGitInternals(target: Guarded): void {
  const parts = relative(target.area.real, target.real).split(sep);
  if (parts.includes(".git") || target.shown.split(/[\\/]/).includes(".git")) {
    throw new WorkspaceError(`Refused: ${target.shown} is inside a .git directory, which is never written`);
  }
}

/** A path as the client should see it: relative to its area when inside one. */
export function displayPath(area: Area, real: string): string {
  const rel = relative(area.real, real);
  return rel === "" ? area.path : join(area.path, rel);
}
