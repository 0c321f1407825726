import { constants, type Stats } from "node:fs";
import { stat } from "node:fs/promises";
import { fsError, WorkspaceError } from "../errors.js";
import type { Area } from "../roots/area.js";
import { openInside } from "./confined.js";
import { formatBytes } from "./format.js";

/** What a path is, in words, for messages. */
export function kindOf(info: Stats): string {
  if (info.isFile()) return "file";
  if (info.isDirectory()) return "directory";
  if (info.isSymbolicLink()) return "symbolic link";
  if (info.isFIFO()) return "FIFO (named pipe)";
  if (info.isSocket()) return "socket";
  if (info.isCharacterDevice()) return "character device";
  if (info.isBlockDevice()) return "block device";
  return "special file";
}

function checkRegular(info: Stats, shown: string, maxBytes: number): void {
  if (info.isDirectory()) throw new WorkspaceError(`${shown} is a directory; use list_directory or directory_tree`);
  if (!info.isFile()) throw new WorkspaceError(`Refused: ${shown} is a ${kindOf(info)}; only regular files are read`);
  if (info.size > maxBytes) {
    throw new WorkspaceError(
      `Refused: ${shown} is ${formatBytes(info.size)}, over the ${formatBytes(maxBytes)} read limit (--max-read-bytes)`,
    );
  }
}

/**
 * Reads a regular file of at most `maxBytes`, inside the areas. The type and size are
 * checked before the file is opened (a quick refusal), then on the open descriptor, which
 * is verified to be inside the areas (confined.ts) whatever was swapped on the path
 * meanwhile; no more than the limit is ever read, whatever the size claimed.
 */
export async function readRegularFile(
  areas: readonly Area[],
  real: string,
  shown: string,
  maxBytes: number,
): Promise<Buffer> {
  try {
    checkRegular(await stat(real), shown, maxBytes);
    const { handle } = await openInside(areas, real, constants.O_RDONLY | constants.O_NONBLOCK, shown);
    try {
      checkRegular(await handle.stat(), shown, maxBytes);
      const buffer = Buffer.alloc(Math.min(maxBytes + 1, 64 * 1024));
      const chunks: Buffer[] = [];
      let total = 0;
      for (;;) {
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
        if (bytesRead === 0) break;
        total += bytesRead;
        if (total > maxBytes) {
          throw new WorkspaceError(`Refused: ${shown} grew past the ${formatBytes(maxBytes)} read limit while reading`);
        }
        chunks.push(Buffer.from(buffer.subarray(0, bytesRead)));
      }
      return Buffer.concat(chunks, total);
    } finally {
      await handle.close();
    }
  } catch (error) {
    throw fsError(error, shown);
  }
}
