import type { Prompt, Tool } from "mcpkit";
import { UsageError } from "./exit-codes.js";
import { itemsOf, type JsonSchema, type JsonType, propertiesOf, requiredOf, typesOf } from "./schema-types.js";

/** One `key=value` word, or a whole JSON object word (`{"a": 1}`). */
export type ArgumentWord = { key: string; value: string } | { object: Record<string, unknown> };

/** Reads the words after a tool or prompt name; a word that is neither is a usage error. */
export function parseArgumentWords(words: string[]): ArgumentWord[] {
  return words.map((word) => {
    if (word.trimStart().startsWith("{")) {
      let value: unknown;
      try {
        value = JSON.parse(word);
      } catch (error) {
        throw new UsageError(`The JSON arguments ${word} do not parse: ${(error as Error).message}`);
      }
      if (typeof value !== "object" || value === null || Array.isArray(value))
        throw new UsageError(`The JSON arguments must be an object, not ${word}`);
      return { object: value as Record<string, unknown> };
    }
    const eq = word.indexOf("=");
    if (eq <= 0 && word.startsWith("-"))
      throw new UsageError(`"${word}" is not an argument; options go before the server (and before --)`);
    if (eq <= 0) throw new UsageError(`"${word}" is not an argument: write key=value, or a JSON object '{…}'`);
    return { key: word.slice(0, eq), value: word.slice(eq + 1) };
  });
}

/**
 * A tool's arguments from the command line. A JSON object word gives any number of them
 * as they are; each `key=value` is read as the type the tool's inputSchema gives the key
 * (numbers, booleans, JSON for objects, arrays and null). A repeated key of an array
 * property collects its values: `tags=a tags=b` is `["a", "b"]`.
 */
export function toolArguments(tool: Tool, words: ArgumentWord[]): Record<string, unknown> {
  const root = tool.inputSchema ?? {};
  const properties = propertiesOf(root);
  const args: Record<string, unknown> = {};
  const repeated = new Set<string>();
  for (const word of words) {
    if ("object" in word) {
      Object.assign(args, word.object);
      continue;
    }
    // A key the schema does not list is read by its additionalProperties schema, if any.
    const schema = properties[word.key] ?? othersSchema(root);
    if (!schema && !takesOthers(root, properties)) throw unknownArgument(tool.name, word.key, properties);
    const types = typesOf(schema, root);
    if (types.has("array") && !types.has("string") && !word.value.trimStart().startsWith("[")) {
      // An array given one element at a time: each element read by the items' schema.
      const item = coerce(word.key, word.value, typesOf(itemsOf(schema as JsonSchema, root), root));
      const previous = repeated.has(word.key) && Array.isArray(args[word.key]) ? (args[word.key] as unknown[]) : [];
      args[word.key] = [...previous, item];
      repeated.add(word.key);
    } else args[word.key] = coerce(word.key, word.value, types);
  }
  const missing = requiredOf(root).filter((name) => !(name in args));
  if (missing.length > 0)
    throw new UsageError(`${tool.name} needs ${missing.map((n) => `${n}=…`).join(" ")} (see: mcpkit call … tools)`);
  return args;
}

/**
 * Reads `raw` as one of `types` (all of them when the schema is silent). JSON is tried for
 * anything but a plain string, so `count=3` is 3 where a number is allowed and "3" where
 * only a string is; where both are allowed, the JSON reading wins.
 */
function coerce(key: string, raw: string, types: Set<JsonType>): unknown {
  if (types.size === 0 || (types.size === 1 && types.has("string"))) return raw;
  let parsed: unknown;
  let parses = false;
  try {
    parsed = JSON.parse(raw);
    parses = true;
  } catch {
    // Not JSON: only a string can take it.
  }
  if (parses && fits(parsed, types)) return parsed;
  if (types.has("string")) return raw;
  const wanted = [...types].join(" or ");
  throw new UsageError(`${key}=${raw}: expected ${wanted === "integer" ? "an integer" : `a ${wanted}`}`);
}

function fits(value: unknown, types: Set<JsonType>): boolean {
  if (value === null) return types.has("null");
  if (Array.isArray(value)) return types.has("array");
  switch (typeof value) {
    case "number":
      return types.has("number") || (types.has("integer") && Number.isInteger(value));
    case "boolean":
      return types.has("boolean");
    case "object":
      return types.has("object");
    default:
      return false; // A JSON string ("\"x\"") is read as the raw text, quotes and all.
  }
}

/** A prompt's arguments: strings, checked against the names it declares. */
export function promptArguments(prompt: Prompt, words: ArgumentWord[]): Record<string, string> {
  const declared = prompt.arguments ?? [];
  const args: Record<string, string> = {};
  for (const word of words) {
    const entries = "object" in word ? Object.entries(word.object) : [[word.key, word.value] as const];
    for (const [key, value] of entries) {
      if (!declared.some((a) => a.name === key)) {
        const names = declared.map((a) => a.name).join(", ") || "none";
        throw new UsageError(`The prompt ${prompt.name} has no argument "${key}" (its arguments: ${names})`);
      }
      args[key] = typeof value === "string" ? value : JSON.stringify(value);
    }
  }
  const missing = declared.filter((a) => a.required && !(a.name in args)).map((a) => `${a.name}=…`);
  if (missing.length > 0) throw new UsageError(`The prompt ${prompt.name} needs ${missing.join(" ")}`);
  return args;
}

/**
 * Whether a key the schema does not list may be given: only where the schema says so
 * (`additionalProperties` or `patternProperties`), or names no properties at all. JSON
 * Schema would allow it by default, but a mistyped name the server then ignores is worse
 * than a usage error that lists the real ones.
 */
function takesOthers(root: JsonSchema, properties: Record<string, JsonSchema>): boolean {
  const others = root.additionalProperties;
  if (others === false) return false;
  if (others !== undefined || root.patternProperties !== undefined) return true;
  return Object.keys(properties).length === 0;
}

const othersSchema = (root: JsonSchema): JsonSchema | undefined =>
  typeof root.additionalProperties === "object" && root.additionalProperties !== null
    ? (root.additionalProperties as JsonSchema)
    : undefined;

function unknownArgument(tool: string, key: string, properties: Record<string, JsonSchema>): UsageError {
  const names = Object.keys(properties).join(", ") || "none";
  return new UsageError(`The tool ${tool} has no argument "${key}" (its arguments: ${names})`);
}
