import { randomBytes } from "node:crypto";
import { lstatSync, mkdirSync, readlinkSync, renameSync, type Stats, unlinkSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";

/**
 * Writes `path` (relative, forward slashes) under `root`, never through a link: each folder
 * on the way must be a real folder (one that is a link, planted in a folder written with
 * --force, would carry the file elsewhere: refused), and the file is written to a new
 * temporary file beside it (created afresh: "wx" fails on anything there, a link included)
 * then renamed over the name, which replaces a link there rather than writing where it points.
 */
export function writeInside(root: string, path: string, content: string | Uint8Array): void {
  let dir = root;
  for (const part of path.split("/").slice(0, -1)) {
    dir = join(dir, part);
    const stats = lstatOrUndefined(dir);
    if (stats === undefined) mkdirSync(dir);
    else if (stats.isSymbolicLink())
      throw new Error(
        `${dir} is a link to ${readlinkSync(dir)}: create-mcpkit writes only inside ${root}; remove the link, or choose another directory`,
      );
    else if (!stats.isDirectory()) throw new Error(`${dir} is a file where the project has a folder: move it away`);
  }
  const target = join(root, path);
  if (lstatOrUndefined(target)?.isDirectory())
    throw new Error(`${target} is a folder where the project has a file: move it away`);
  const temporary = join(dirname(target), `.${basename(target)}.${process.pid}-${randomBytes(4).toString("hex")}.tmp`);
  writeFileSync(temporary, content, { flag: "wx" });
  try {
    renameSync(temporary, target);
  } catch (error) {
    unlinkSync(temporary);
    throw error;
  }
}

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}
