import { realpath, stat } from "node:fs/promises";
import { resolve } from "node:path";
import { WorkspaceError } from "../errors.js";
import { isInside } from "./inside.js";

/**
 * A directory the file tools may work in. `path` is how it was named (absolute), `real`
 * where it really is (symbolic links resolved); access is decided on `real`, and `path`
 * lets the client keep using the name it knows.
 */
export interface Area {
  path: string;
  real: string;
}

/** The --root directories: each must exist and be a directory; nested ones fold into their parent. */
export async function configuredAreas(dirs: readonly string[]): Promise<Area[]> {
  const areas: Area[] = [];
  for (const dir of dirs) {
    const path = resolve(dir);
    let real: string;
    try {
      real = await realpath(path);
    } catch {
      throw new WorkspaceError(`--root ${dir}: no such directory`);
    }
    if (!(await stat(real)).isDirectory()) throw new WorkspaceError(`--root ${dir}: not a directory`);
    areas.push({ path, real });
  }
  return withoutNested(areas);
}

/** Drops areas that lie inside another one, so every path has one owner. */
export function withoutNested(areas: Area[]): Area[] {
  return areas.filter(
    (area, i) =>
      !areas.some((other, j) => j !== i && isInside(other.real, area.real) && (other.real !== area.real || j < i)),
  );
}

/** Where `real` lies, if anywhere. */
export const areaOf = (areas: readonly Area[], real: string): Area | undefined =>
  areas.find((area) => isInside(area.real, real));
