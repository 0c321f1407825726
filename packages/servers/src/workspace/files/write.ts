import { constants } from "node:fs";
import { stat } from "node:fs/promises";
import { dirname } from "node:path";
import { fsError, WorkspaceError } from "../errors.js";
import type { Area } from "../roots/area.js";
import { inGitDirectory, openInside } from "./confined.js";
import type { Guarded } from "./guard.js";
import { kindOf } from "./open.js";

/**
 * Writes a whole regular file at a guarded path. An existing target must be a regular
 * file; a new one needs its parent directory. The file is opened in its verified parent
 * directory (confined.ts), never through a link, without blocking on a FIFO, and is
 * truncated only once it is known to be inside the areas and outside any .git directory.
 */
export async function writeRegularFile(
  areas: readonly Area[],
  target: Guarded,
  data: string,
): Promise<{ created: boolean; bytes: number }> {
  try {
    if (target.exists) {
      const info = await stat(target.real);
      if (!info.isFile()) throw new WorkspaceError(`Refused: ${target.shown} is a ${kindOf(info)}, not a regular file`);
    } else {
      const parent = await stat(dirname(target.real)).catch(() => undefined);
      if (!parent?.isDirectory()) {
        throw new WorkspaceError(
          `The parent directory of ${target.shown} does not exist; create it first with create_directory`,
        );
      }
    }
    const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_NONBLOCK;
    const { handle, real, area } = await openInside(areas, target.real, flags, target.shown, { mode: 0o666 });
    try {
      if (inGitDirectory(area, real)) {
        throw new WorkspaceError(`Refused: ${target.shown} leads into a .git directory, which is never written`);
      }
      if (!(await handle.stat()).isFile()) throw new WorkspaceError(`Refused: ${target.shown} is not a regular file`);
      const bytes = Buffer.from(data, "utf8");
      await handle.truncate(0);
      await handle.writeFile(bytes);
      return { created: !target.exists, bytes: bytes.length };
    } finally {
      await handle.close();
    }
  } catch (error) {
    throw fsError(error, target.shown);
  }
}
