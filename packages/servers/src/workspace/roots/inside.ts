import { isAbsolute, relative, sep } from "node:path";

/** Whether `path` is `dir` itself or lies below it (both absolute and normalized). */
export function isInside(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  // A name like "..foo" is inside; only ".." itself or "../…" climbs out.
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}
