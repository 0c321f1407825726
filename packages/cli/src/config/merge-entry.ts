import { parseJsonc } from "./jsonc.js";

/** A configuration file's new text, and what happened to the entry. */
export interface Merged {
  text: string;
  change: "added" | "replaced" | "unchanged";
}

/**
 * Puts `entry` under `key`.`name` in a configuration file's text (undefined: no file yet),
 * leaving everything else as it was: other servers, other settings, the order of keys,
 * the file's indentation. Throws when the text is not a JSON object to merge into.
 */
export function mergeEntry(text: string | undefined, key: string, name: string, entry: unknown): Merged {
  const blank = text === undefined || text.trim() === "";
  const root = blank ? {} : parseJsonc(text);
  if (typeof root !== "object" || root === null || Array.isArray(root))
    throw new Error("it does not hold a JSON object, so there is nothing to add the server to");
  const record = root as Record<string, unknown>;
  const servers = record[key] ?? {};
  if (typeof servers !== "object" || servers === null || Array.isArray(servers))
    throw new Error(`its "${key}" is not an object of servers`);
  const named = servers as Record<string, unknown>;
  const previous = named[name];
  if (previous !== undefined && JSON.stringify(previous) === JSON.stringify(entry))
    return { text: text as string, change: "unchanged" };
  named[name] = entry;
  record[key] = named;
  return {
    text: `${JSON.stringify(record, null, blank ? 2 : indentOf(text as string))}\n`,
    change: previous === undefined ? "added" : "replaced",
  };
}

/** The file's own indentation: that of its first indented line (two spaces when none is). */
function indentOf(text: string): string | number {
  const indent = /^([ \t]+)\S/m.exec(text)?.[1];
  return indent ?? 2;
}
