import { type Document, isMap, isSeq, parseDocument, type YAMLMap, type YAMLSeq } from "yaml";
import type { Merged } from "../merge-entry.js";

/**
 * Puts a server under `KEY.NAME` in a YAML file whose servers are a map (Goose's
 * config.yaml: `extensions:`), through the yaml package's document, which keeps comments and
 * the rest of the file as they were. A file that is not YAML is refused with its line and
 * column.
 */
export function mergeYamlMap(text: string | undefined, key: string, name: string, entry: unknown): Merged {
  const doc = read(text);
  const servers = doc.get(key, true);
  if (servers !== undefined && servers !== null && !isMap(servers))
    throw new Error(`its "${key}" is not a map of servers`);
  const found = (servers as YAMLMap | undefined)?.get(name, true) as { toJSON?: () => unknown } | undefined;
  const previous = found === undefined ? undefined : toJs(found);
  if (previous !== undefined && same(previous, entry)) return { text: text ?? "", change: "unchanged", previous };
  if (servers === undefined || servers === null) doc.set(key, doc.createNode({ [name]: entry }));
  else (servers as YAMLMap).set(name, doc.createNode(entry));
  return {
    text: String(doc),
    change: previous === undefined ? "added" : "replaced",
    ...(previous !== undefined && { previous }),
  };
}

/**
 * Puts a server in a YAML file whose servers are a list of entries named by `name`
 * (Continue's config.yaml and its block files: `mcpServers: [- name: …]`). A file made anew
 * starts with `header` (Continue's name, version and schema).
 */
export function mergeYamlList(
  text: string | undefined,
  key: string,
  name: string,
  entry: Record<string, unknown>,
  header: Record<string, unknown>,
): Merged {
  const doc = read(text);
  if (text === undefined || text.trim() === "") for (const [k, v] of Object.entries(header)) doc.set(k, v);
  const servers = doc.get(key, true);
  if (servers !== undefined && servers !== null && !isSeq(servers))
    throw new Error(`its "${key}" is not a list of servers`);
  const items = (servers as YAMLSeq | undefined)?.items ?? [];
  const index = items.findIndex((item) => isMap(item) && item.get("name") === name);
  const previous = index === -1 ? undefined : toJs(items[index]);
  if (previous !== undefined && same(previous, entry)) return { text: text ?? "", change: "unchanged", previous };
  const node = doc.createNode(entry);
  if (servers === undefined || servers === null) doc.set(key, doc.createNode([entry]));
  else if (index === -1) (servers as YAMLSeq).add(node);
  else (servers as YAMLSeq).set(index, node);
  return {
    text: String(doc),
    change: previous === undefined ? "added" : "replaced",
    ...(previous !== undefined && { previous }),
  };
}

function read(text: string | undefined): Document {
  const doc = parseDocument(text ?? "", { prettyErrors: true });
  const error = doc.errors[0];
  if (error) {
    const at = error.linePos?.[0];
    const message = (error.message.split("\n")[0] as string).replace(/ at line \d+, column \d+:?$/, "");
    throw new SyntaxError(`${at ? `line ${at.line}, column ${at.col}: ` : ""}${message}`);
  }
  if (doc.contents !== null && !isMap(doc.contents))
    throw new Error("it does not hold a YAML map, so there is nothing to add the server to");
  return doc;
}

const toJs = (node: unknown) =>
  typeof (node as { toJSON?: unknown })?.toJSON === "function" ? (node as { toJSON: () => unknown }).toJSON() : node;

const same = (a: unknown, b: unknown) => JSON.stringify(sorted(a)) === JSON.stringify(sorted(b));
const sorted = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(sorted)
    : typeof value === "object" && value !== null
      ? Object.fromEntries(
          Object.keys(value)
            .sort()
            .map((k) => [k, sorted((value as Record<string, unknown>)[k])]),
        )
      : value;
