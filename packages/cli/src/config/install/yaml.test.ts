import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { mergeYamlList, mergeYamlMap } from "./yaml.js";

// Goose's config.yaml (a map of extensions) and Continue's (a list of named servers, or a
// block file per server), edited with their comments kept.

describe("mergeYamlMap (Goose)", () => {
  const goose = {
    name: "docs",
    type: "stdio",
    enabled: true,
    cmd: "node",
    args: ["s.js"],
    envs: {},
    env_keys: [],
    timeout: 300,
  };

  it("adds an extension, the file's comments and other settings kept", () => {
    const text =
      "# my goose\nGOOSE_MODE: smart_approve # kept\nextensions:\n  developer:\n    type: builtin\n    enabled: true\n";
    const merged = mergeYamlMap(text, "extensions", "docs", goose);
    expect(merged.change).toBe("added");
    expect(merged.text).toContain("# my goose\n");
    expect(merged.text).toContain("# kept");
    expect(parse(merged.text)).toEqual({
      GOOSE_MODE: "smart_approve",
      extensions: { developer: { type: "builtin", enabled: true }, docs: goose },
    });
  });

  it("replaces one of the same name, and changes nothing when it is the same", () => {
    const first = mergeYamlMap(undefined, "extensions", "docs", goose).text;
    expect(mergeYamlMap(first, "extensions", "docs", goose).change).toBe("unchanged");
    const replaced = mergeYamlMap(first, "extensions", "docs", { ...goose, cmd: "python" });
    expect(replaced).toMatchObject({ change: "replaced", previous: goose });
    expect(parse(replaced.text).extensions.docs.cmd).toBe("python");
  });

  it("refuses a file that is not YAML, saying where", () => {
    expect(() => mergeYamlMap("extensions:\n  a: b\n   c: d\n", "extensions", "docs", goose)).toThrow(
      /^line \d+, column \d+: /,
    );
  });
});

describe("mergeYamlList (Continue)", () => {
  const server = { name: "docs", type: "stdio", command: "node", args: ["s.js"] };
  const header = { name: "Local Config", version: "1.0.0", schema: "v1" };

  it("makes a new file with its header and the server", () => {
    expect(parse(mergeYamlList(undefined, "mcpServers", "docs", server, header).text)).toEqual({
      ...header,
      mcpServers: [server],
    });
  });

  it("adds to the list, and replaces the entry of the same name in place", () => {
    const text =
      "name: Mine\nversion: 0.0.1\nschema: v1\nmcpServers:\n  - name: first # mine\n    command: a\n  - name: docs\n    command: old\n";
    const added = mergeYamlList(text, "mcpServers", "new", { ...server, name: "new" }, header);
    expect(parse(added.text).mcpServers.map((s: { name: string }) => s.name)).toEqual(["first", "docs", "new"]);
    const replaced = mergeYamlList(text, "mcpServers", "docs", server, header);
    expect(replaced).toMatchObject({ change: "replaced", previous: { name: "docs", command: "old" } });
    expect(replaced.text).toContain("# mine");
    expect(parse(replaced.text)).toEqual({
      name: "Mine",
      version: "0.0.1",
      schema: "v1",
      mcpServers: [{ name: "first", command: "a" }, server],
    });
  });
});
