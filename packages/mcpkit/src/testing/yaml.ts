/**
 * YAML for test files, loaded on first use: a server that never reads a test file never
 * loads the parser. Aliases are bounded (a "billion laughs" file expands a few aliases
 * into gigabytes), and the core schema keeps YAML 1.1's surprises out (`no` stays a
 * string, dates stay strings), so a value reads as the JSON a server receives.
 */
let yaml: Promise<typeof import("yaml")> | undefined;
const load = () => {
  yaml ??= import("yaml");
  return yaml;
};

/** The most alias expansions one document may make. */
export const MAX_YAML_ALIASES = 100;

/** A YAML document that cannot be read: the message names the line and column. */
export class YamlError extends Error {
  override name = "YamlError";
}

export async function parseYaml(text: string, source: string): Promise<unknown> {
  const { parseDocument } = await load();
  const document = parseDocument(text, { schema: "core", prettyErrors: true, uniqueKeys: true });
  const error = document.errors[0];
  if (error) throw new YamlError(`${source} is not valid YAML: ${error.message}`);
  try {
    return document.toJS({ maxAliasCount: MAX_YAML_ALIASES });
  } catch (cause) {
    throw new YamlError(`${source} cannot be read: ${(cause as Error).message}`);
  }
}

export async function stringifyYaml(value: unknown): Promise<string> {
  const { stringify } = await load();
  return stringify(value, { schema: "core", lineWidth: 0, aliasDuplicateObjects: false });
}
