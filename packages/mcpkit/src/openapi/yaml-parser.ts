/**
 * YAML for the OpenAPI parser, read with the `yaml` package and its bound on aliases
 * (`maxAliasCount`): a few hundred bytes of nested anchors and aliases (a "billion laughs")
 * would otherwise expand into a tree the bundler walks for minutes. The parser's own YAML
 * reader (js-yaml) has no such bound, so it is replaced.
 */

/** How many times aliases may be expanded, weighted by what each holds (yaml's own measure). */
export const MAX_YAML_ALIASES = 100;

export class YamlRefused extends Error {
  override name = "YamlRefused";
}

/** A json-schema-ref-parser parser plugin; `failure` is why its last parse failed. */
export function yamlParser() {
  const parser = {
    order: 200,
    allowEmpty: true,
    failure: undefined as Error | undefined,
    // JSON is YAML: what the JSON parser could not read is tried here.
    canParse: [".yaml", ".yml", ".json"],
    async parse(file: { url: string; data: unknown }): Promise<unknown> {
      const data = Buffer.isBuffer(file.data) ? file.data.toString("utf8") : file.data;
      if (typeof data !== "string") return data;
      const { parse } = await import("yaml");
      try {
        return parse(data, { maxAliasCount: MAX_YAML_ALIASES, schema: "core" });
      } catch (error) {
        const message = (error as Error).message;
        parser.failure = /alias/i.test(message)
          ? new YamlRefused(
              `${file.url}: its YAML aliases expand beyond the bound (${MAX_YAML_ALIASES} expansions): refused, as such a document exhausts memory and time`,
            )
          : new YamlRefused(`${file.url} is not valid YAML: ${message.split("\n")[0]}`);
        throw parser.failure;
      }
    },
  };
  return parser;
}
