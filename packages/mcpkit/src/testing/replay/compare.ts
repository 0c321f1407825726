import { isIsoTimestamp } from "../json/iso-time.js";
import { formatPointer, type JsonPath, parsePointer, pointerMatches } from "../json/pointer.js";
import { isObject, preview } from "../json/sorted.js";

/** One place where the replayed message differs from the recorded one. */
export interface ValueDifference {
  /** A JSON Pointer into the message. */
  pointer: string;
  recorded?: unknown;
  replayed?: unknown;
  message: string;
}

/**
 * What replay ignores unless told otherwise (docs/testing.md, "Replay"): the message's
 * `id`, `_meta` at any depth, session and task ids, signed request state (a server signs
 * it anew each time), and any two values that are both ISO 8601 timestamps.
 */
export const IGNORED_KEYS = ["_meta", "sessionId", "taskId", "requestState"];

/** The ignore patterns, parsed: `--ignore` pointers, `*` for any item. */
export function parseIgnores(pointers: readonly string[]): string[][] {
  return pointers.map(parsePointer);
}

/** Compares a recorded message with its replayed counterpart; returns what differs. */
export function compareMessages(recorded: unknown, replayed: unknown, ignores: readonly string[][]): ValueDifference[] {
  const out: ValueDifference[] = [];
  walk(recorded, replayed, [], ignores, out);
  return out;
}

function ignored(path: JsonPath, ignores: readonly string[][]): boolean {
  if (path.length === 1 && path[0] === "id") return true;
  const last = path[path.length - 1];
  if (typeof last === "string" && IGNORED_KEYS.includes(last)) return true;
  return ignores.some((pattern) => pointerMatches(pattern, path));
}

function walk(a: unknown, b: unknown, path: JsonPath, ignores: readonly string[][], out: ValueDifference[]): void {
  if (ignored(path, ignores)) return;
  const pointer = formatPointer(path);
  if (isIsoTimestamp(a) && isIsoTimestamp(b)) return;
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) {
      out.push({
        pointer,
        recorded: a,
        replayed: b,
        message: `recorded ${a.length} item${a.length === 1 ? "" : "s"}, replayed ${b.length}: ${preview(a, 60)} → ${preview(b, 60)}`,
      });
      return;
    }
    for (let i = 0; i < a.length; i++) walk(a[i], b[i], [...path, i], ignores, out);
    return;
  }
  if (isObject(a) && isObject(b)) {
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const at = [...path, key];
      if (ignored(at, ignores)) continue;
      if (!Object.hasOwn(b, key))
        out.push({ pointer: formatPointer(at), recorded: a[key], message: `missing (recorded ${preview(a[key])})` });
      else if (!Object.hasOwn(a, key))
        out.push({
          pointer: formatPointer(at),
          replayed: b[key],
          message: `not in the recording (replayed ${preview(b[key])})`,
        });
      else walk(a[key], b[key], at, ignores, out);
    }
    return;
  }
  if (a === b) return;
  out.push({ pointer, recorded: a, replayed: b, message: `recorded ${preview(a)}, replayed ${preview(b)}` });
}

/** Values a server makes up each time that the client sends back: what replay substitutes. */
const SUBSTITUTED_KEYS = ["taskId", "requestState", "nextCursor", "subscriptionId"];

/**
 * Pairs of (recorded, replayed) values the server made up in an answer, found at the same
 * place in both: sent back later by the client, they are replaced by the replayed ones.
 */
export function substitutions(
  recorded: unknown,
  replayed: unknown,
  found = new Map<string, string>(),
  depth = 0,
): Map<string, string> {
  if (depth > 32) return found;
  if (Array.isArray(recorded) && Array.isArray(replayed))
    for (let i = 0; i < recorded.length; i++) substitutions(recorded[i], replayed[i], found, depth + 1);
  else if (isObject(recorded) && isObject(replayed))
    for (const [key, value] of Object.entries(recorded)) {
      const other = replayed[key];
      if (SUBSTITUTED_KEYS.includes(key) && typeof value === "string" && typeof other === "string") {
        if (value !== other) found.set(value, other);
      } else substitutions(value, other, found, depth + 1);
    }
  return found;
}

/** A client message with the values the server made up replaced by this run's. */
export function substitute(message: unknown, values: ReadonlyMap<string, string>): unknown {
  if (values.size === 0) return message;
  const walkValue = (value: unknown, depth: number): unknown => {
    if (typeof value === "string") return values.get(value) ?? value;
    if (Array.isArray(value)) return value.map((item) => walkValue(item, depth + 1));
    if (!isObject(value)) return value;
    // The message's own id is the client's: never a value the server made up.
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [
        key,
        depth === 0 && key === "id" ? item : walkValue(item, depth + 1),
      ]),
    );
  };
  return walkValue(message, 0);
}
