import { describe, expect, it } from "vitest";
import { describeMismatches, matchSubset } from "../../src/testing/match/subset.js";

// Deep subset, as test files' expectations use it: an object matches when each expected
// key matches, an array when it has the same length and each element matches.

describe("deep subset", () => {
  it("matches an object on the keys it names, whatever else the value holds", () => {
    expect(matchSubset({ sum: 5 }, { sum: 5, extra: true })).toEqual([]);
    expect(matchSubset({}, { anything: 1 })).toEqual([]);
  });

  it("fails a missing key, naming where it should be and what was expected", () => {
    expect(matchSubset({ a: { b: 1 } }, { a: {} })).toEqual([{ at: "/a/b", message: "missing (expected 1)" }]);
  });

  it("compares scalars strictly: same JSON type and value", () => {
    expect(matchSubset(5, 5)).toEqual([]);
    expect(matchSubset(5, "5")).toEqual([{ at: "", message: 'expected 5, got "5"' }]);
    expect(matchSubset(null, null)).toEqual([]);
    expect(matchSubset(true, 1)).toHaveLength(1);
    expect(matchSubset({ x: null }, {})).toEqual([{ at: "/x", message: "missing (expected null)" }]);
  });

  it("matches an array element by element, and only at the same length", () => {
    expect(matchSubset([{ type: "text" }], [{ type: "text", text: "hi" }])).toEqual([]);
    expect(matchSubset([1], [1, 2])).toEqual([{ at: "", message: "expected 1 item, got 2" }]);
    expect(matchSubset([1, 2], [1])).toEqual([{ at: "", message: "expected 2 items, got 1" }]);
    expect(matchSubset([{ a: 1 }, { a: 2 }], [{ a: 1 }, { a: 3 }])).toEqual([
      { at: "/1/a", message: "expected 2, got 3" },
    ]);
  });

  it("does not take an array for an object, or an object for an array", () => {
    expect(matchSubset({ 0: 1 }, [1])).toEqual([{ at: "", message: "expected an object, got [1]" }]);
    expect(matchSubset([1], { 0: 1 })).toEqual([{ at: "", message: 'expected an array of 1, got {"0":1}' }]);
  });

  it("reports every branch that fails, each at its JSON Pointer (escaped)", () => {
    const mismatches = matchSubset({ "a/b": 1, "c~d": 2 }, { "a/b": 0, "c~d": 0 });
    expect(mismatches.map((m) => m.at)).toEqual(["/a~1b", "/c~0d"]);
    expect(describeMismatches(mismatches)).toEqual(["at /a~1b: expected 1, got 0", "at /c~0d: expected 2, got 0"]);
  });
});
