import { describe, expect, it } from "vitest";
import { applyEdits } from "../../packages/servers/src/workspace/files/edit.js";

describe("applyEdits (edit_file)", () => {
  it("replaces each oldText once, in order", () => {
    expect(
      applyEdits("a b c", [
        { oldText: "b", newText: "B" },
        { oldText: "B c", newText: "X" },
      ]),
    ).toBe("a X");
  });

  it("refuses text that is missing, ambiguous or empty, naming the edit", () => {
    expect(() => applyEdits("abc", [{ oldText: "x", newText: "y" }])).toThrow(/oldText was not found/);
    expect(() =>
      applyEdits("a a", [
        { oldText: "b", newText: "c" },
        { oldText: "a", newText: "c" },
      ]),
    ).toThrow(/^Edit 1: oldText was not found/);
    expect(() => applyEdits("a a", [{ oldText: "a", newText: "c" }])).toThrow(/occurs 2 times/);
    expect(() => applyEdits("a", [{ oldText: "", newText: "c" }])).toThrow(/oldText is empty/);
  });

  it("matches LF edit text in a CRLF file and keeps its line endings", () => {
    expect(applyEdits("one\r\ntwo\r\nthree\r\n", [{ oldText: "one\ntwo", newText: "1\n2" }])).toBe(
      "1\r\n2\r\nthree\r\n",
    );
  });

  it("takes replacement text literally ($& is not a pattern)", () => {
    expect(applyEdits("price", [{ oldText: "price", newText: "$& $1 $$" }])).toBe("$& $1 $$");
  });
});
