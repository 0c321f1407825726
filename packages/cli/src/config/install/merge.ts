import type { InstallTarget } from "../install-target.js";
import { type Merged, mergeEntry } from "../merge-entry.js";
import { mergeToml } from "./toml.js";
import { mergeYamlList, mergeYamlMap } from "./yaml.js";

/** Puts `entry` named `name` into the text of a client's file (undefined: no file yet), in the file's own format. */
export function mergeInto(
  target: InstallTarget,
  text: string | undefined,
  name: string,
  entry: Record<string, unknown>,
): Merged {
  switch (target.format) {
    case "json":
      return mergeEntry(text, target.key, name, entry);
    case "toml":
      return mergeToml(text, target.key, name, entry);
    case "yaml-map":
      return mergeYamlMap(text, target.key, name, entry);
    case "yaml-list":
      // A new config.yaml of Continue's is an assistant of its own: named, versioned, schema v1.
      return mergeYamlList(text, target.key, name, entry, { name: "Local Config", version: "1.0.0", schema: "v1" });
    case "yaml-block":
      return mergeYamlList(text, target.key, name, entry, { name, version: "0.0.1", schema: "v1" });
  }
}
