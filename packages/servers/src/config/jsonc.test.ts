import { describe, expect, it } from "vitest";
import { parseJsonc } from "./jsonc.js";

// The configuration files VS Code and Cursor write are JSON with comments and trailing
// commas; a mistake is said with its line and column.

describe("JSON with comments", () => {
  it("reads JSON with comments as VS Code does", () => {
    expect(parseJsonc('{"a": "http://x // not a comment", /* b */ "c": [1,],}')).toEqual({
      a: "http://x // not a comment",
      c: [1],
    });
  });
  it("says where a text is not JSON: line and column, in words", () => {
    expect(() => parseJsonc('{\n  "a": [1, 2\n}')).toThrow(
      'line 3, column 1: a "," (or the closing bracket) was expected',
    );
    expect(() => parseJsonc("{ 'a': 1 }")).toThrow("line 1, column 3: a character JSON does not allow here");
  });
});
