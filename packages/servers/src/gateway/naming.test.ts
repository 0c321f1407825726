import { describe, expect, it } from "vitest";
import {
  MAX_NAME,
  matches,
  nameProblem,
  prefixProblem,
  renameSuggestion,
  separatorProblem,
  servedName,
  serverPrefix,
} from "./naming.js";

describe("the gateway's names", () => {
  it("serves a tool as <server>_<tool> by default, or under another separator", () => {
    expect(servedName(serverPrefix("github"), "_", "search_issues")).toBe("github_search_issues");
    expect(servedName(serverPrefix("github"), ".", "search_issues")).toBe("github.search_issues");
    expect(servedName(serverPrefix("github"), "__", "x")).toBe("github__x");
  });

  it("uses a rename as it is", () => {
    expect(servedName("github", "_", "search_issues", "find")).toBe("find");
  });

  it("turns each character of a server's name that a tool name may not hold into -", () => {
    expect(serverPrefix("my db")).toBe("my-db");
    expect(serverPrefix("team/issues:v2")).toBe("team-issues-v2");
    expect(serverPrefix("ünïcode")).toBe("-n-code");
    // Characters the specification allows stay.
    expect(serverPrefix("my_db.v2-x")).toBe("my_db.v2-x");
  });

  it("is the same function of the same name: a reload cannot change a name", () => {
    for (const name of ["files", "my db", "a.b_c-d"]) expect(serverPrefix(name)).toBe(serverPrefix(name));
  });

  it("refuses a server name that does not start with a letter or digit, suggesting one that does", () => {
    expect(prefixProblem("files")).toBeUndefined();
    expect(prefixProblem("_private")).toMatch(/start with a letter or digit.*rename it "private"/);
    expect(prefixProblem("ü")).toMatch(/start with a letter or digit/);
  });

  it("refuses separators a tool name cannot hold", () => {
    expect(separatorProblem("_")).toBeUndefined();
    expect(separatorProblem("--")).toBeUndefined();
    expect(separatorProblem("/")).toMatch(/one to three/);
    expect(separatorProblem("")).toMatch(/one to three/);
    expect(separatorProblem("____")).toMatch(/one to three/);
  });

  it("refuses a name over 128 characters, or with characters a tool name may not hold", () => {
    expect(nameProblem("a".repeat(MAX_NAME))).toBeUndefined();
    expect(nameProblem("a".repeat(MAX_NAME + 1))).toMatch(/129 characters, more than the 128/);
    expect(nameProblem("a b")).toMatch(/characters a tool name may not/);
    expect(nameProblem("")).toMatch(/empty/);
  });

  it("suggests a rename that fits", () => {
    const long = "x".repeat(130);
    const served = servedName("files", "_", long);
    const suggestion = renameSuggestion("files", "tools", long, served);
    const renamed = /: "(files_x+)" \}/.exec(suggestion)?.[1] as string;
    expect(renamed.length).toBe(MAX_NAME);
    expect(nameProblem(renamed)).toBeUndefined();
    expect(suggestion).toContain('"tools": { "rename"');
  });

  it("matches patterns where * stands for any characters", () => {
    expect(matches("read_*", "read_file")).toBe(true);
    expect(matches("read_*", "write_file")).toBe(false);
    expect(matches("*", "anything")).toBe(true);
    expect(matches("a.b", "axb")).toBe(false);
    expect(matches("exact", "exact")).toBe(true);
    expect(matches("*_file", "read_file")).toBe(true);
  });
});
