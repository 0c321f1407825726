import { stat } from "node:fs/promises";
import { fsError, WorkspaceError } from "../errors.js";
import type { Area } from "../roots/area.js";
import { type Guarded, guardPath } from "./guard.js";

/** A directory argument, checked like any path; omitted, it is the first allowed directory. */
export async function guardDirectory(areas: readonly Area[], path: string | undefined): Promise<Guarded> {
  const target = await guardPath(areas, path ?? areas[0]?.path);
  let isDirectory: boolean;
  try {
    isDirectory = (await stat(target.real)).isDirectory();
  } catch (error) {
    throw fsError(error, target.shown);
  }
  if (!isDirectory) throw new WorkspaceError(`${target.shown} is not a directory`);
  return target;
}
