import { UsageError } from "./usage-error.js";

/** `"Name: value"` strings (a repeatable `--header`) as headers; the last of a name wins. */
export function parseHeaders(values: readonly string[], flag = "--header"): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const value of values) {
    const colon = value.indexOf(":");
    if (colon <= 0) throw new UsageError(`${flag} takes "Name: value", not "${value}"`);
    headers[value.slice(0, colon).trim()] = value.slice(colon + 1).trim();
  }
  return headers;
}

/**
 * `KEY=VALUE` strings (a repeatable `--env`) as variables; `KEY` alone passes on its value
 * in `from` (this process's environment), and is left out when `from` has none.
 */
export function parseEnv(
  values: readonly string[],
  from: NodeJS.ProcessEnv = process.env,
  flag = "--env",
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const value of values) {
    const eq = value.indexOf("=");
    if (eq === 0) throw new UsageError(`${flag} takes KEY=VALUE or KEY, not "${value}"`);
    if (eq > 0) env[value.slice(0, eq)] = value.slice(eq + 1);
    else if (from[value] !== undefined) env[value] = from[value] as string;
  }
  return env;
}
