import { OpError } from "../op-error.js";

/**
 * The checks of a page's body, field by field: the request types come from the operation
 * table, and the body is only JSON until these say it is one. Each refusal names the field.
 */

/** A body as it came: a JSON object (server.ts refuses anything else). */
export type JsonBody = Record<string, unknown>;

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

export function text(body: JsonBody, key: string): string {
  const value = body[key];
  if (typeof value !== "string") throw new OpError(`"${key}" must be a string`);
  return value;
}

export function optionalText(body: JsonBody, key: string): string | undefined {
  return body[key] === undefined ? undefined : text(body, key);
}

export function object(body: JsonBody, key: string): Record<string, unknown> {
  const value = body[key] ?? {};
  if (!isObject(value)) throw new OpError(`"${key}" must be an object`);
  return value;
}

export function optionalObject(body: JsonBody, key: string): Record<string, unknown> | undefined {
  return body[key] === undefined ? undefined : object(body, key);
}

export function strings(body: JsonBody, key: string): string[] | undefined {
  const value = body[key];
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.some((item) => typeof item !== "string"))
    throw new OpError(`"${key}" must be a list of strings`);
  return value as string[];
}

/** An object of strings (prompt arguments, headers); other values are refused, not turned into text. */
export function stringRecord(body: JsonBody, key: string): Record<string, string> | undefined {
  const value = optionalObject(body, key);
  if (value === undefined) return undefined;
  for (const [name, item] of Object.entries(value))
    if (typeof item !== "string") throw new OpError(`"${key}.${name}" must be a string`);
  return value as Record<string, string>;
}

export function flag(body: JsonBody, key: string): boolean | undefined {
  const value = body[key];
  if (value !== undefined && typeof value !== "boolean") throw new OpError(`"${key}" must be true or false`);
  return value;
}

/** A body that must carry nothing the operation would ignore: an empty object. */
export function empty(body: JsonBody): Record<string, never> {
  const extra = Object.keys(body);
  if (extra.length > 0) throw new OpError(`This operation takes no "${extra[0]}"`);
  return {};
}
