import { formatPointer, type JsonPath } from "../json/pointer.js";
import { isObject, preview } from "../json/sorted.js";

/** One place where the actual value does not match what was expected. */
export interface Mismatch {
  /** A JSON Pointer into the actual value ("" for the value itself). */
  at: string;
  message: string;
}

/**
 * Deep subset (docs/testing.md, "Expectations"): an object matches when each expected key
 * is present and matches (other keys are free); an array when it has the same length and
 * each element matches the expected element at its index; anything else when it is equal
 * (the same JSON type and value). Returns every mismatch, the first of each branch.
 */
export function matchSubset(expected: unknown, actual: unknown, path: JsonPath = []): Mismatch[] {
  const at = formatPointer(path);
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual))
      return [{ at, message: `expected an array of ${expected.length}, got ${preview(actual)}` }];
    if (actual.length !== expected.length)
      return [
        { at, message: `expected ${expected.length} item${expected.length === 1 ? "" : "s"}, got ${actual.length}` },
      ];
    return expected.flatMap((item, i) => matchSubset(item, actual[i], [...path, i]));
  }
  if (isObject(expected)) {
    if (!isObject(actual)) return [{ at, message: `expected an object, got ${preview(actual)}` }];
    return Object.entries(expected).flatMap(([key, value]) =>
      Object.hasOwn(actual, key)
        ? matchSubset(value, actual[key], [...path, key])
        : [{ at: formatPointer([...path, key]), message: `missing (expected ${preview(value)})` }],
    );
  }
  if (expected === actual) return [];
  return [{ at, message: `expected ${preview(expected)}, got ${preview(actual)}` }];
}

/** The mismatches as lines a person reads: `at /a/b: expected 5, got 6`. */
export function describeMismatches(mismatches: readonly Mismatch[], prefix = ""): string[] {
  return mismatches.map((m) => `${prefix}${m.at === "" ? "" : `at ${m.at}: `}${m.message}`);
}
