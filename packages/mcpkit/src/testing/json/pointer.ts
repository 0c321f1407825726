/**
 * JSON Pointers (RFC 6901) with one addition for patterns: a `*` segment stands for any
 * array item or object member, so `/result/content/*\/text` names the text of every block.
 */

/** A path into a JSON value: object keys and array indexes. */
export type JsonPath = readonly (string | number)[];

/** The segments of a pointer; throws on one that is not a pointer (it must start with "/"). */
export function parsePointer(pointer: string): string[] {
  if (pointer === "") return [];
  if (!pointer.startsWith("/"))
    throw new TypeError(`"${pointer}" is not a JSON Pointer: it starts with "/" (e.g. /result/content/*/text)`);
  return pointer
    .slice(1)
    .split("/")
    .map((segment) => segment.replaceAll("~1", "/").replaceAll("~0", "~"));
}

/** The pointer that names `path`. */
export function formatPointer(path: JsonPath): string {
  return path.map((segment) => `/${String(segment).replaceAll("~", "~0").replaceAll("/", "~1")}`).join("");
}

/** Whether `path` is the place `pattern` names (its segments, `*` matching any one). */
export function pointerMatches(pattern: readonly string[], path: JsonPath): boolean {
  if (pattern.length !== path.length) return false;
  return pattern.every((segment, i) => segment === "*" || segment === String(path[i]));
}
