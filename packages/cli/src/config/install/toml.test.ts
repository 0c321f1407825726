import { parse } from "smol-toml";
import { describe, expect, it } from "vitest";
import { mergeToml, tableHeaders } from "./toml.js";

// Codex CLI's config.toml: `[mcp_servers.NAME]` tables, edited where they are.

const entry = { command: "node", args: ["server.js", "--flag"], env: { API_KEY: "k" } };

describe("mergeToml", () => {
  it("makes a new file with the table", () => {
    const merged = mergeToml(undefined, "mcp_servers", "docs", entry);
    expect(merged.change).toBe("added");
    expect(merged.text).toBe(
      '[mcp_servers.docs]\ncommand = "node"\nargs = ["server.js", "--flag"]\nenv = { API_KEY = "k" }\n',
    );
    expect(parse(merged.text)).toEqual({ mcp_servers: { docs: entry } });
  });

  it("adds a table at the end, every comment and setting of the file kept", () => {
    const text = '# my codex config\nmodel = "o3"   # a comment that stays\n\n[features]\nweb_search = true\n';
    const merged = mergeToml(text, "mcp_servers", "docs", entry);
    expect(merged.text.startsWith(text)).toBe(true);
    expect(parse(merged.text)).toMatchObject({
      model: "o3",
      features: { web_search: true },
      mcp_servers: { docs: entry },
    });
  });

  it("replaces a table and its sub-tables in place, the comment above the next table kept", () => {
    const text = [
      "[mcp_servers.docs]",
      'command = "old"',
      "",
      "[mcp_servers.docs.env]",
      'OLD = "1"',
      "",
      "# the next one",
      "[mcp_servers.other]",
      'command = "other"',
      "",
    ].join("\n");
    const merged = mergeToml(text, "mcp_servers", "docs", entry);
    expect(merged).toMatchObject({ change: "replaced", previous: { command: "old", env: { OLD: "1" } } });
    expect(merged.text).toContain("# the next one\n[mcp_servers.other]");
    expect(parse(merged.text)).toEqual({ mcp_servers: { docs: entry, other: { command: "other" } } });
  });

  it("finds a table whose name is quoted, and changes nothing when the entry is the same", () => {
    const text = '[mcp_servers."my docs"]\ncommand = "node"\nargs = ["server.js", "--flag"]\nenv = { API_KEY = "k" }\n';
    expect(mergeToml(text, "mcp_servers", "my docs", entry).change).toBe("unchanged");
    const merged = mergeToml(text, "mcp_servers", "my docs", { command: "python" });
    expect(parse(merged.text)).toEqual({ mcp_servers: { "my docs": { command: "python" } } });
  });

  it("writes quotes, backslashes and line breaks so that TOML reads them back as given", () => {
    const odd = { command: 'C:\\Program Files\\"x"', args: ["a\nb", "tab\there", "é"] };
    expect(parse(mergeToml(undefined, "mcp_servers", 'we"ird', odd).text)).toEqual({ mcp_servers: { 'we"ird': odd } });
  });

  it("refuses a file that is not TOML, saying where", () => {
    expect(() => mergeToml('model = "o3"\nbroken = [\n', "mcp_servers", "docs", entry)).toThrow(/^line 3, column 1: /);
  });

  it("leaves a server written as an inline table to the user", () => {
    const text = 'mcp_servers = { docs = { command = "old" } }\n';
    expect(() => mergeToml(text, "mcp_servers", "docs", entry)).toThrow("written in a way mcpkit does not edit");
    expect(() => mergeToml(text, "mcp_servers", "new", entry)).toThrow("could not add the server without changing");
  });
});

describe("tableHeaders", () => {
  it("takes no [ inside a multi-line string or array for a header", () => {
    const text = 'a = """\n[not.a.table]\n"""\nb = [\n  [1, 2],\n]\n[real]\nc = 1\n';
    expect(tableHeaders(text).map((h) => h.path)).toEqual([["real"]]);
  });
});
