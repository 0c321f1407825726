import { flagOf, type OptionDescription, type OptionTable, type OptionValues } from "./describe.js";
import { durationMs } from "./duration.js";
import { parseEnv, parseHeaders } from "./headers.js";
import { wholeNumber } from "./numbers.js";
import { UsageError } from "./usage-error.js";

/**
 * What was given for a table's options, by name, as a command line or a configuration
 * gives it (text, a list of texts, on or off), checked and converted by each option's
 * description into the value its factory takes. An option not given is read from its
 * environment variables, when it has some; else it is absent (the factory's default
 * applies). A value that does not fit throws a UsageError naming the flag or variable.
 */
export function readOptions<T extends OptionTable>(
  table: T,
  given: Readonly<Record<string, unknown>>,
  env: NodeJS.ProcessEnv = process.env,
): OptionValues<T> {
  const values: Record<string, unknown> = {};
  for (const [name, option] of Object.entries(table)) {
    let raw = given[name];
    let source = flagOf(name, option) ?? `$${option.env?.[0] ?? name}`;
    if (raw === undefined)
      for (const variable of option.env ?? []) {
        if (env[variable]) {
          raw = env[variable];
          source = `$${variable}`;
          break;
        }
      }
    if (raw === undefined) continue;
    values[name] = readValue(option, raw, source, env);
  }
  return values as OptionValues<T>;
}

/** A list's items: commander gives a repeated flag as an array, a variable gives one text. */
const listOf = (raw: unknown): string[] => (Array.isArray(raw) ? raw.map(String) : [String(raw)]);

function readValue(option: OptionDescription, raw: unknown, source: string, env: NodeJS.ProcessEnv): unknown {
  const text = Array.isArray(raw) ? String(raw[raw.length - 1]) : String(raw);
  switch (option.type) {
    case "text":
    case "file":
      return text;
    case "url":
      if (!/^https?:\/\/\S+$/i.test(text)) throw new UsageError(`${source} must be an http(s) URL, not "${text}"`);
      return text;
    case "directories":
    case "list":
      return listOf(raw);
    case "choice":
      if (!option.choices.includes(text))
        throw new UsageError(`${source} takes ${option.choices.join(" or ")}, not "${text}"`);
      return text;
    case "number":
      return wholeNumber(text, source, option.min ?? 1);
    case "limit":
      return text === "off" ? false : wholeNumber(text, source, option.min ?? 0);
    case "duration":
      return durationMs(text, source, { bare: option.bare ?? "s", min: option.min ?? 1 });
    case "switch":
      return switchValue(raw, source);
    case "headers":
      return parseHeaders(listOf(raw), source);
    case "variables":
      return parseEnv(listOf(raw), env, source);
  }
}

function switchValue(raw: unknown, source: string): boolean {
  if (typeof raw === "boolean") return raw;
  const text = String(raw).trim().toLowerCase();
  if (["1", "true", "yes", "on"].includes(text)) return true;
  if (["0", "false", "no", "off", ""].includes(text)) return false;
  throw new UsageError(`${source} is on or off (true or false), not "${String(raw)}"`);
}
