import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { Root } from "mcpkit";
import { UsageError } from "./usage-error.js";

/**
 * The connection flags every command that reaches a server shares (`call`, `inspect`,
 * `serve proxy`): `-H/--header "Name: value"` for HTTP, `-e/--env KEY[=VALUE]` for stdio,
 * `--root PATH|URI` for the roots a client offers.
 */

/** `--header "Name: value"` values as headers; the last of a name wins. */
export function parseHeaders(values: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const value of values) {
    const colon = value.indexOf(":");
    if (colon <= 0) throw new UsageError(`--header takes "Name: value", not "${value}"`);
    headers[value.slice(0, colon).trim()] = value.slice(colon + 1).trim();
  }
  return headers;
}

/** `--env KEY=VALUE` sets a variable; `--env KEY` passes this process's value on. */
export function parseEnv(values: readonly string[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const value of values) {
    const eq = value.indexOf("=");
    if (eq === 0) throw new UsageError(`--env takes KEY=VALUE or KEY, not "${value}"`);
    if (eq > 0) env[value.slice(0, eq)] = value.slice(eq + 1);
    else if (process.env[value] !== undefined) env[value] = process.env[value] as string;
  }
  return env;
}

/** `--root`: a path (made absolute, as a file: URI named by the path) or a URI as it is. */
export function rootFor(value: string): Root {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return { uri: value };
  const path = resolve(value);
  return { uri: pathToFileURL(path).href, name: path };
}
