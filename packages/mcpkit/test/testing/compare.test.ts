import { describe, expect, it } from "vitest";
import { formatPointer, parsePointer, pointerMatches } from "../../src/testing/json/pointer.js";
import { compareMessages, parseIgnores, substitute, substitutions } from "../../src/testing/replay/compare.js";
import { align } from "../../src/testing/replay/results.js";

// How replay compares a recorded server message with the one it got: what it ignores by
// default, what --ignore adds, and the values it carries from an answer to the next request.

const compare = (a: unknown, b: unknown, ignore: string[] = []) => compareMessages(a, b, parseIgnores(ignore));

describe("JSON Pointers with *", () => {
  it("parse and format as RFC 6901 writes them (~0 for ~, ~1 for /)", () => {
    expect(parsePointer("/result/content/0/text")).toEqual(["result", "content", "0", "text"]);
    expect(parsePointer("/a~1b/c~0d")).toEqual(["a/b", "c~d"]);
    expect(parsePointer("")).toEqual([]);
    expect(formatPointer(["a/b", "c~d", 3])).toBe("/a~1b/c~0d/3");
    expect(() => parsePointer("result/content")).toThrow(/starts with "\/"/);
  });

  it("match a path with * standing for any one item", () => {
    const pattern = parsePointer("/result/content/*/text");
    expect(pointerMatches(pattern, ["result", "content", 4, "text"])).toBe(true);
    expect(pointerMatches(pattern, ["result", "content", 4, "type"])).toBe(false);
    expect(pointerMatches(pattern, ["result", "content", 4])).toBe(false);
  });
});

describe("comparing a replayed message with the recorded one", () => {
  it("finds each place that differs, as a pointer with both values", () => {
    const recorded = { jsonrpc: "2.0", id: 3, result: { structuredContent: { sum: 5 }, isError: false } };
    const replayed = { jsonrpc: "2.0", id: 3, result: { structuredContent: { sum: 6 } } };
    expect(compare(recorded, replayed)).toEqual([
      { pointer: "/result/structuredContent/sum", recorded: 5, replayed: 6, message: "recorded 5, replayed 6" },
      { pointer: "/result/isError", recorded: false, message: "missing (recorded false)" },
    ]);
    expect(compare({ result: {} }, { result: { extra: 1 } })).toEqual([
      { pointer: "/result/extra", replayed: 1, message: "not in the recording (replayed 1)" },
    ]);
    expect(compare({ result: { content: [1, 2] } }, { result: { content: [1] } })[0]?.pointer).toBe("/result/content");
  });

  it("ignores by default the id, _meta at any depth, session and task ids, and request state", () => {
    const recorded = {
      id: 1,
      result: {
        _meta: { a: 1 },
        task: { taskId: "t-1", sessionId: "s-1" },
        requestState: "x",
        content: [{ _meta: 1 }],
      },
    };
    const replayed = {
      id: 9,
      result: {
        _meta: { a: 2 },
        task: { taskId: "t-2", sessionId: "s-2" },
        requestState: "y",
        content: [{ _meta: 2 }],
      },
    };
    expect(compare(recorded, replayed)).toEqual([]);
    // Only the message's own id: an id inside the result is data.
    expect(compare({ result: { id: 1 } }, { result: { id: 2 } })).toHaveLength(1);
  });

  it("takes two ISO 8601 timestamps as equal, but not a timestamp and something else", () => {
    expect(compare({ at: "2026-07-28T10:00:00Z" }, { at: "2026-11-29T06:05:24.154+01:00" })).toEqual([]);
    expect(compare({ at: "2026-07-28T10:00:00Z" }, { at: "yesterday" })).toHaveLength(1);
    // A date alone is data, not a clock reading.
    expect(compare({ on: "2026-07-28" }, { on: "2026-07-29" })).toHaveLength(1);
  });

  it("ignores what --ignore names, * matching any array item", () => {
    const recorded = {
      result: {
        content: [
          { type: "text", text: "a" },
          { type: "text", text: "b" },
        ],
        n: 1,
      },
    };
    const replayed = {
      result: {
        content: [
          { type: "text", text: "x" },
          { type: "text", text: "y" },
        ],
        n: 2,
      },
    };
    expect(compare(recorded, replayed, ["/result/content/*/text"]).map((d) => d.pointer)).toEqual(["/result/n"]);
    expect(compare(recorded, replayed, ["/result/content/*/text", "/result/n"])).toEqual([]);
    expect(compare(recorded, replayed, ["/result/content/0/text"]).map((d) => d.pointer)).toEqual([
      "/result/content/1/text",
      "/result/n",
    ]);
  });
});

describe("values the server made up", () => {
  it("are paired from the recorded answer and the replayed one, and replaced in what the client sends back", () => {
    const found = substitutions(
      { result: { task: { taskId: "old-task" }, requestState: "old-state", nextCursor: "c1", other: "same" } },
      { result: { task: { taskId: "new-task" }, requestState: "new-state", nextCursor: "c1", other: "same" } },
    );
    expect([...found]).toEqual([
      ["old-task", "new-task"],
      ["old-state", "new-state"],
    ]);
    expect(
      substitute({ id: "old-task", params: { taskId: "old-task", requestState: "old-state", keep: "x" } }, found),
    ).toEqual({ id: "old-task", params: { taskId: "new-task", requestState: "new-state", keep: "x" } });
  });
});

describe("notifications in order", () => {
  it("are aligned by method, so one missing or extra does not shift the others", () => {
    expect(align(["a", "b", "c"], ["a", "c"])).toEqual([
      [0, 0],
      [1, undefined],
      [2, 1],
    ]);
    expect(align(["a", "c"], ["a", "x", "c"])).toEqual([
      [0, 0],
      [undefined, 1],
      [1, 2],
    ]);
    expect(align([], ["a"])).toEqual([[undefined, 0]]);
  });
});
