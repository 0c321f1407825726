import { parse, TomlError } from "smol-toml";
import type { Merged } from "../merge-entry.js";

/**
 * Puts a server under `[KEY.NAME]` in a TOML file (Codex CLI's config.toml: `[mcp_servers.NAME]`),
 * editing the text where the table is and nowhere else: comments, other tables and their
 * layout stay as they were. A table of that name is replaced with its sub-tables
 * (`[mcp_servers.NAME.env]`); a new one is added at the end. smol-toml reads the file (a file
 * that is not TOML is refused with its line and column) and reads the result back: the new
 * file must mean the old one with only this server changed, or nothing is written (a server
 * written as an inline table or with dotted keys is left to the user).
 */
export function mergeToml(text: string | undefined, key: string, name: string, entry: Record<string, unknown>): Merged {
  const before = text ?? "";
  const old = read(before);
  const servers = old[key];
  if (servers !== undefined && (typeof servers !== "object" || servers === null || Array.isArray(servers)))
    throw new Error(`its "${key}" is not a table of servers`);
  const previous = (servers as Record<string, unknown> | undefined)?.[name];
  if (previous !== undefined && same(previous, entry)) return { text: before, change: "unchanged", previous };
  const table = tomlTable([key, name], entry);
  let after: string;
  if (previous === undefined) {
    const separator = before.trim() === "" ? "" : before.endsWith("\n") ? "\n" : "\n\n";
    after = `${before.trim() === "" ? "" : before}${separator}${table}`;
  } else {
    const range = tableRange(before, [key, name]);
    if (!range)
      throw new Error(
        `its server "${name}" is written in a way mcpkit does not edit (an inline table, or dotted keys): replace it by hand, or remove it first`,
      );
    after = before.slice(0, range.start) + table + before.slice(range.end);
  }
  // What it means now: the old file with this one server changed, and nothing else.
  let now: Record<string, unknown>;
  try {
    now = read(after);
  } catch {
    now = {};
  }
  const without = (document: Record<string, unknown>) => {
    const copy = sorted(document) as Record<string, unknown>;
    const table = copy[key] as Record<string, unknown> | undefined;
    if (table) delete table[name];
    // The table that held only this server, made for it, is no other change.
    if (table && Object.keys(table).length === 0) delete copy[key];
    return copy;
  };
  if (!same((now[key] as Record<string, unknown>)?.[name], entry) || !same(without(now), without(old)))
    throw new Error("mcpkit could not add the server without changing what the rest of the file means: add it by hand");
  return {
    text: after,
    change: previous === undefined ? "added" : "replaced",
    ...(previous !== undefined && { previous }),
  };
}

function read(text: string): Record<string, unknown> {
  try {
    return parse(text) as Record<string, unknown>;
  } catch (error) {
    if (error instanceof TomlError)
      throw new SyntaxError(`line ${error.line}, column ${error.column}: ${error.message.split("\n")[0]}`);
    throw error;
  }
}

const same = (a: unknown, b: unknown) => JSON.stringify(sorted(a)) === JSON.stringify(sorted(b));
const sorted = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(sorted)
    : typeof value === "object" && value !== null && [null, Object.prototype].includes(Object.getPrototypeOf(value))
      ? Object.fromEntries(
          Object.keys(value)
            .sort()
            .map((k) => [k, sorted((value as Record<string, unknown>)[k])]),
        )
      : value;

/** `[a.b]` and its keys; an object value as an inline table, on one line. */
export function tomlTable(path: string[], entry: Record<string, unknown>): string {
  const lines = Object.entries(entry).map(([k, v]) => `${tomlKey(k)} = ${tomlValue(v)}`);
  return `[${path.map(tomlKey).join(".")}]\n${lines.join("\n")}\n`;
}

const tomlKey = (key: string) => (/^[A-Za-z0-9_-]+$/.test(key) ? key : tomlString(key));

function tomlValue(value: unknown): string {
  if (typeof value === "string") return tomlString(value);
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return `[${value.map(tomlValue).join(", ")}]`;
  if (typeof value === "object" && value !== null)
    return `{ ${Object.entries(value)
      .map(([k, v]) => `${tomlKey(k)} = ${tomlValue(v)}`)
      .join(", ")} }`;
  throw new Error(`${String(value)} cannot be written in TOML`);
}

/** A basic string: quotes, backslashes and control characters escaped, as TOML reads them back. */
function tomlString(value: string): string {
  const escaped = value.replace(/[\\"\p{Cc}]/gu, (c) => {
    const named: Record<string, string> = {
      "\\": "\\\\",
      '"': '\\"',
      "\b": "\\b",
      "\t": "\\t",
      "\n": "\\n",
      "\f": "\\f",
      "\r": "\\r",
    };
    return named[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
  });
  return `"${escaped}"`;
}

/**
 * Where the table `path` and its sub-tables are in the text: from its header's line to the
 * last line of its own before the next table (comments and blank lines just above the next
 * header are that table's, and kept). Undefined when it has no header of its own.
 */
function tableRange(text: string, path: string[]): { start: number; end: number } | undefined {
  const headers = tableHeaders(text);
  const ours = (h: { path: string[] }) => path.every((p, i) => h.path[i] === p);
  const first = headers.findIndex((h) => h.path.length === path.length && ours(h));
  if (first === -1) return undefined;
  let last = first;
  while (last + 1 < headers.length && ours(headers[last + 1] as { path: string[] })) last++;
  const start = (headers[first] as { offset: number }).offset;
  let end = headers[last + 1]?.offset ?? text.length;
  // Give back the blank lines and comments that lead into the next table.
  const lines = text.slice(start, end).split("\n");
  let keep = lines.length;
  while (keep > 1 && /^\s*(#.*)?$/.test(lines[keep - 1] as string)) keep--;
  end = start + lines.slice(0, keep).join("\n").length + (keep < lines.length ? 1 : 0);
  return { start, end };
}

/**
 * The table headers of a TOML text, each with the offset of its line and its key path: a `[`
 * that starts a line outside any string, array or inline table. Strings (basic, literal and
 * multi-line) and comments are skipped, so a `[` inside them is not taken for a header.
 */
export function tableHeaders(text: string): { offset: number; path: string[] }[] {
  const headers: { offset: number; path: string[] }[] = [];
  let depth = 0;
  let lineStart = true;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (c === "\n") {
      lineStart = true;
      continue;
    }
    if (lineStart && (c === " " || c === "\t" || c === "\r")) continue;
    if (lineStart && depth === 0 && c === "[") {
      const close = headerEnd(text, i);
      headers.push({
        offset: text.lastIndexOf("\n", i) + 1,
        path: keyPath(text.slice(i + 1, close).replace(/^\[|\]$/g, "")),
      });
      i = close;
      lineStart = false;
      continue;
    }
    lineStart = false;
    if (c === "#") i = lineEnd(text, i) - 1;
    else if (c === '"' || c === "'") i = stringEnd(text, i) - 1;
    else if (c === "[" || c === "{") depth++;
    else if (c === "]" || c === "}") depth = Math.max(0, depth - 1);
  }
  return headers;
}

const lineEnd = (text: string, from: number) => {
  const at = text.indexOf("\n", from);
  return at === -1 ? text.length : at;
};

/** The index just after a string starting at `from` (basic or literal, one line or three quotes). */
function stringEnd(text: string, from: number): number {
  const quote = text[from] as string;
  const triple = text.startsWith(quote.repeat(3), from);
  const delimiter = triple ? quote.repeat(3) : quote;
  for (let i = from + delimiter.length; i < text.length; i++) {
    if (quote === '"' && text[i] === "\\") {
      i++;
      continue;
    }
    if (!triple && text[i] === "\n") return i;
    if (text.startsWith(delimiter, i)) {
      let end = i + delimiter.length;
      // A multi-line string may end with up to two more quotes of its own.
      while (triple && text[end] === quote && end < i + 5) end++;
      return end;
    }
  }
  return text.length;
}

/** The index of the `]` that closes a header starting at `from` (`]]` for an array of tables). */
function headerEnd(text: string, from: number): number {
  for (let i = from + 1; i < text.length; i++) {
    const c = text[i];
    if (c === '"' || c === "'") i = stringEnd(text, i) - 1;
    else if (c === "]") return text[i + 1] === "]" && text[from + 1] === "[" ? i + 1 : i;
    else if (c === "\n") return i;
  }
  return text.length;
}

/** A dotted key's parts: bare, "basic" (escapes read) or 'literal', with blanks around the dots. */
function keyPath(key: string): string[] {
  const parts: string[] = [];
  const pattern = /\s*(?:"((?:[^"\\]|\\.)*)"|'([^']*)'|([A-Za-z0-9_-]+))\s*(?:\.|$)/gy;
  for (let match = pattern.exec(key); match && match[0] !== ""; match = pattern.exec(key)) {
    if (match[1] !== undefined) parts.push(JSON.parse(`"${match[1]}"`) as string);
    else parts.push((match[2] ?? match[3]) as string);
  }
  return parts;
}
