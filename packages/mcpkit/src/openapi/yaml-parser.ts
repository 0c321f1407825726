import { MAX_YAML_ALIASES, parseYaml } from "../protocol/yaml.js";

/**
 * YAML for the OpenAPI parser, read by protocol/yaml.ts: its aliases bounded (a few hundred
 * bytes of nested anchors and aliases, a "billion laughs", would otherwise expand into a
 * tree the bundler walks for minutes) and its keys checked in linear time (a mapping of
 * many keys cost the `yaml` package's own check their square). The parser's own YAML reader
 * (js-yaml) has no bound on aliases, so it is replaced.
 */

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
      try {
        return await parseYaml(data);
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
