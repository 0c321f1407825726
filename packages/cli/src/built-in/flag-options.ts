import { flagOf, helpOf, type OptionTable, placeholderOf, repeats } from "@mcpkit/servers/options";
import { Option } from "commander";

const collect = (value: string, previous: string[] | undefined) => [...(previous ?? []), value];

/**
 * The command line's flags of a server's options, made from their descriptions
 * (@mcpkit/servers/options), by option name. An option read from the environment only
 * (a secret) has none.
 */
export function flagOptions(table: OptionTable): Map<string, Option> {
  const options = new Map<string, Option>();
  for (const [name, described] of Object.entries(table)) {
    const flag = flagOf(name, described);
    if (flag === undefined) continue;
    const help = helpOf(described);
    const placeholder = placeholderOf(described);
    let option: Option;
    if (described.type === "switch") option = new Option(flag, help);
    else if (described.type === "directories") option = new Option(`${flag} <${placeholder}...>`, help);
    else option = new Option(`${flag} <${placeholder}>`, help);
    if (described.type === "choice") option.choices(described.choices);
    if (repeats(described) && described.type !== "directories") option.argParser(collect);
    options.set(name, option);
  }
  return options;
}

/**
 * What commander parsed for a server's options, by option name: commander names a value
 * after its flag (`--cache-ttl` → cacheTtl), the table by what its factory takes (cacheTtlMs).
 */
export function givenValues(table: OptionTable, parsed: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const given: Record<string, unknown> = {};
  for (const [name, option] of flagOptions(table)) given[name] = parsed[option.attributeName()];
  return given;
}
