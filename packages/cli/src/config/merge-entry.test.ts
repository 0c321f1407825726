import { describe, expect, it } from "vitest";
import { mergeEntry } from "./merge-entry.js";

// `mcpkit install` writes its entry into a client's file: only where the entry goes, the
// rest of the file (comments, other servers, layout, line endings) as it was.

describe("writing an entry (mcpkit install)", () => {
  it("adds a server and leaves every other server, setting and the indentation alone", () => {
    const before =
      '{\n    "globalShortcut": "Ctrl+Space",\n    "mcpServers": {\n        "old": { "command": "old" }\n    }\n}\n';
    const merged = mergeEntry(before, "mcpServers", "new", { command: "new", args: [] });
    expect(merged.change).toBe("added");
    expect(JSON.parse(merged.text)).toEqual({
      globalShortcut: "Ctrl+Space",
      mcpServers: { old: { command: "old" }, new: { command: "new", args: [] } },
    });
    expect(merged.text).toContain('\n    "globalShortcut"');
    expect(mergeEntry(merged.text, "mcpServers", "new", { command: "new", args: [] }).change).toBe("unchanged");
    expect(mergeEntry(merged.text, "mcpServers", "new", { command: "newer", args: [] }).change).toBe("replaced");
    expect(JSON.parse(mergeEntry(undefined, "servers", "a", { url: "u" }).text)).toEqual({
      servers: { a: { url: "u" } },
    });
  });

  it("edits the text only where the entry goes: another entry's layout, comments and line endings stay", () => {
    const before =
      '{\r\n  // mine\r\n  "servers": {\r\n    "old": { "url": "o" }, /* kept */\r\n  },\r\n  "x": [1,2]\r\n}\r\n';
    const added = mergeEntry(before, "servers", "docs", { url: "u" });
    expect(added.text).toBe(
      '{\r\n  // mine\r\n  "servers": {\r\n    "old": { "url": "o" },\r\n    "docs": {\r\n      "url": "u"\r\n    }, /* kept */\r\n  },\r\n  "x": [1,2]\r\n}\r\n',
    );
    const replaced = mergeEntry(added.text, "servers", "old", { url: "v" });
    expect(replaced).toMatchObject({ change: "replaced", previous: { url: "o" } });
    expect(replaced.text).toContain('    "old": {\r\n      "url": "v"\r\n    },\r\n    "docs"');
    expect(mergeEntry('{\n\t"x": 1\n}\n', "servers", "a", { url: "u" }).text).toBe(
      '{\n\t"x": 1,\n\t"servers": {\n\t\t"a": {\n\t\t\t"url": "u"\n\t\t}\n\t}\n}\n',
    );
  });

  it("keeps a byte order mark, and writes a name such as __proto__ as a key like any other", () => {
    const merged = mergeEntry('\uFEFF{"mcpServers": {}}', "mcpServers", "__proto__", { command: "x" });
    expect(merged.text.startsWith("\uFEFF{\n")).toBe(true);
    expect(JSON.parse(merged.text.slice(1))).toEqual(JSON.parse('{"mcpServers": {"__proto__": {"command": "x"}}}'));
    expect(mergeEntry(merged.text, "mcpServers", "__proto__", { command: "x" }).change).toBe("unchanged");
  });

  it("refuses a file that is not an object of servers", () => {
    expect(() => mergeEntry("[1]", "mcpServers", "a", {})).toThrow(/does not hold a JSON object/);
    expect(() => mergeEntry('{"mcpServers": []}', "mcpServers", "a", {})).toThrow(/not an object of servers/);
  });

  it("says where a file is not JSON: line and column", () => {
    expect(() => mergeEntry('{\n  "a": 1\n  "b": 2\n}', "mcpServers", "a", {})).toThrow(
      'line 3, column 3: a "," (or the closing bracket) was expected',
    );
  });
});
