/** JSON values as plain data: what comes off the wire or out of JSON.parse. */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** A copy with every object's keys in sorted order, so that two equal values print the same. */
export function sortKeys<T>(value: T): T {
  if (Array.isArray(value)) return value.map(sortKeys) as T;
  if (!isObject(value)) return value;
  // fromEntries makes own properties: a "__proto__" key stays a key.
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortKeys(value[key])]),
  ) as T;
}

/** A value for a message a person reads: JSON, cut short when long. */
export function preview(value: unknown, max = 120): string {
  const text = value === undefined ? "nothing" : JSON.stringify(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
