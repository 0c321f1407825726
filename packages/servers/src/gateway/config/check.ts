import type { Node } from "jsonc-parser";
import type { Problems } from "./problems.js";
import type { Field } from "./schema.js";

/** The key of a property node, and its value node. */
export const propertiesOf = (node: Node | undefined): [string, Node, Node][] =>
  node?.type !== "object"
    ? []
    : (node.children ?? []).flatMap((property) => {
        const [key, value] = property.children ?? [];
        return key && value ? [[String(key.value), value, property] as [string, Node, Node]] : [];
      });

/** The value node under `key` of an object node. */
export const child = (node: Node | undefined, key: string): Node | undefined =>
  propertiesOf(node).find(([k]) => k === key)?.[1];

const TYPE_NAMES: Record<Field["type"], string> = {
  string: "a string",
  number: "a number",
  boolean: "true or false",
  strings: "a list of strings",
  map: "an object",
  object: "an object",
  list: "a list",
};

const join = (path: string, key: string) => (path === "" ? key : `${path}.${key}`);

/**
 * Checks the value at `node` against `field`, adding a problem (with its position) for
 * each mistake: a wrong type, a value out of bounds or not among those allowed, a key
 * the schema does not name (with the nearest it does), a required key missing.
 */
export function check(node: Node, field: Field, path: string, problems: Problems): void {
  const kind = node.type;
  const wrong = () => problems.add(node, path, `must be ${TYPE_NAMES[field.type]}, not ${describe(node)}`);
  switch (field.type) {
    case "string":
      if (kind !== "string") {
        wrong();
        return;
      }
      if (field.oneOf && !field.oneOf.includes(node.value as string))
        problems.add(node, path, `must be one of ${field.oneOf.map((v) => `"${v}"`).join(", ")}`);
      return;
    case "number": {
      if (kind !== "number") {
        wrong();
        return;
      }
      const value = node.value as number;
      if (field.integer && !Number.isInteger(value)) problems.add(node, path, "must be a whole number");
      else if (field.min !== undefined && value < field.min) problems.add(node, path, `must be at least ${field.min}`);
      else if (field.max !== undefined && value > field.max) problems.add(node, path, `must be at most ${field.max}`);
      return;
    }
    case "boolean":
      if (kind !== "boolean") wrong();
      return;
    case "strings":
      if (kind !== "array") {
        wrong();
        return;
      }
      for (const [i, item] of (node.children ?? []).entries())
        if (item.type !== "string") problems.add(item, `${path}[${i}]`, `must be a string, not ${describe(item)}`);
      return;
    case "list":
      if (kind !== "array") {
        wrong();
        return;
      }
      for (const [i, item] of (node.children ?? []).entries())
        if (field.values) check(item, field.values, `${path}[${i}]`, problems);
      return;
    case "map": {
      if (kind !== "object") {
        wrong();
        return;
      }
      const seen = new Set<string>();
      for (const [key, value, property] of propertiesOf(node)) {
        // JSON keeps one of the two, and the reader would see both: neither is what was meant.
        if (seen.has(key)) problems.add(property, join(path, key), "is given twice");
        seen.add(key);
        if (field.values) check(value, field.values, join(path, key), problems);
      }
      return;
    }
    case "object": {
      if (kind !== "object") {
        wrong();
        return;
      }
      const fields = field.fields ?? {};
      const seen = new Set<string>();
      for (const [key, value, property] of propertiesOf(node)) {
        if (seen.has(key)) problems.add(property, join(path, key), "is given twice");
        seen.add(key);
        const known = fields[key];
        if (known) check(value, known, join(path, key), problems);
        else if (!field.open) problems.add(property, join(path, key), unknownKey(key, Object.keys(fields)));
      }
      for (const [key, known] of Object.entries(fields))
        if (known.required && !seen.has(key)) problems.add(node, path, `needs "${key}" (${known.help})`);
      return;
    }
  }
}

function describe(node: Node): string {
  if (node.type === "null") return "null";
  if (node.type === "array") return "a list";
  if (node.type === "object") return "an object";
  return `${node.type === "string" ? "the string" : node.type === "number" ? "the number" : ""} ${JSON.stringify(node.value)}`.trim();
}

/** "is not a setting here", with the closest known key when one is near (a typo). */
function unknownKey(key: string, known: string[]): string {
  const near = known
    .map((k) => ({ k, d: distance(key.toLowerCase(), k.toLowerCase()) }))
    .filter(({ d }) => d <= Math.max(1, Math.floor(key.length / 3)))
    .sort((a, b) => a.d - b.d)[0];
  const list = known.length > 0 ? ` (known here: ${known.join(", ")})` : "";
  return near ? `is not a setting here: did you mean "${near.k}"?` : `is not a setting here${list}`;
}

/** Levenshtein distance, for suggestions. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(
        (previous[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    previous = row;
  }
  return previous[b.length] as number;
}
