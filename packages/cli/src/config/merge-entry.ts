import { BOM, jsoncTree, nodeValue, withoutBom } from "@mcpkit/servers/config";
import { findNodeAtLocation, type Node, visit } from "jsonc-parser";

/** A configuration file's new text, what happened to the entry, and the entry it replaces. */
export interface Merged {
  text: string;
  change: "added" | "replaced" | "unchanged";
  /** The entry of that name the file had, when it had one. */
  previous?: unknown;
}

/**
 * Puts `entry` under `key`.`name` in a configuration file's text (undefined: no file yet).
 * The text is edited where the entry goes and nowhere else: comments, other servers and
 * settings, their order and layout, the line endings and a byte order mark stay as they
 * were; the entry is written in the file's indentation. (A file all on one line, without
 * comments, is laid out anew with two spaces.) Throws when the text is not JSON (with
 * comments) holding an object to merge into, saying where.
 */
export function mergeEntry(text: string | undefined, key: string, name: string, entry: unknown): Merged {
  if (text === undefined || withoutBom(text).trim() === "")
    return { text: `${JSON.stringify({ [key]: { [name]: entry } }, null, 2)}\n`, change: "added" };
  const root = jsoncTree(text);
  if (root?.type !== "object")
    throw new Error("it does not hold a JSON object, so there is nothing to add the server to");
  const servers = findNodeAtLocation(root, [key]);
  if (servers !== undefined && servers.type !== "object") throw new Error(`its "${key}" is not an object of servers`);
  const found = servers && findNodeAtLocation(servers, [name]);
  const previous = found && nodeValue(found);
  if (found && JSON.stringify(previous) === JSON.stringify(entry)) return { text, change: "unchanged", previous };
  const body = withoutBom(text);
  const layout = layoutOf(body);
  let edited: string;
  if (!body.trim().includes("\n") && !hasComment(body)) {
    const record = nodeValue(root) as Record<string, unknown>;
    const named = (record[key] ?? {}) as Record<string, unknown>;
    define(named, name, entry);
    define(record, key, named);
    edited = `${JSON.stringify(record, null, 2)}\n`;
  } else if (found?.parent) {
    edited = splice(body, found.offset, found.length, layout.json(entry, lineIndent(body, found.parent.offset)));
  } else if (servers) edited = addProperty(body, servers, name, entry, layout);
  else edited = addProperty(body, root, key, { [name]: entry }, layout);
  return {
    text: (text.startsWith(BOM) ? BOM : "") + edited,
    change: found ? "replaced" : "added",
    ...(found && { previous }),
  };
}

interface Layout {
  eol: string;
  /** One level of indentation. */
  unit: string;
  /** A value as JSON laid out in the file's way, its first line at `indent`. */
  json(value: unknown, indent: string): string;
}

/** The file's own indentation (that of its first indented line; two spaces when none is) and line ending. */
function layoutOf(text: string): Layout {
  const first = /^([ \t]+)\S/m.exec(text)?.[1];
  const unit = first === undefined ? "  " : first.startsWith("\t") ? "\t" : first;
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  return { eol, unit, json: (value, indent) => JSON.stringify(value, null, unit).replace(/\n/g, eol + indent) };
}

/** Adds `"key": value` as the object's last property, laid out as the ones before it. */
function addProperty(text: string, object: Node, key: string, value: unknown, layout: Layout): string {
  const property = JSON.stringify(key);
  const last = object.children?.at(-1);
  const end = object.offset + object.length;
  if (last && !text.slice(object.offset, end).includes("\n"))
    return splice(text, last.offset + last.length, 0, `, ${property}: ${JSON.stringify(value)}`);
  if (last) {
    const indent = lineIndent(text, last.offset);
    return splice(
      text,
      last.offset + last.length,
      0,
      `,${layout.eol}${indent}${property}: ${layout.json(value, indent)}`,
    );
  }
  // An empty object: the property goes on a line of its own, one level in.
  const outer = lineIndent(text, object.offset);
  const inner = outer + layout.unit;
  return splice(
    text,
    object.offset,
    object.length,
    `{${layout.eol}${inner}${property}: ${layout.json(value, inner)}${layout.eol}${outer}}`,
  );
}

/** The blanks that start the line holding `offset`. */
function lineIndent(text: string, offset: number): string {
  const start = text.lastIndexOf("\n", offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(start))?.[0] ?? "";
}

const splice = (text: string, offset: number, length: number, insert: string) =>
  text.slice(0, offset) + insert + text.slice(offset + length);

/** Sets a key as JSON.parse would (so "__proto__" is a key like any other). */
const define = (object: Record<string, unknown>, key: string, value: unknown) =>
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });

function hasComment(text: string): boolean {
  let found = false;
  visit(text, { onComment: () => (found = true) });
  return found;
}
