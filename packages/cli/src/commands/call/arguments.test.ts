import { describe, expect, it } from "vitest";
import { parseArgumentWords, promptArguments, toolArguments } from "./arguments.js";

// `mcpkit call`'s words after a tool or prompt name: key=value read by the tool's schema,
// or a JSON object; the binary is tested end to end in test/cli-call.

const tool = (inputSchema: Record<string, unknown>) => ({ name: "t", inputSchema });
const read = (schema: Record<string, unknown>, ...words: string[]) =>
  toolArguments(tool(schema), parseArgumentWords(words));

describe("tool arguments from key=value", () => {
  const schema = {
    type: "object",
    properties: {
      text: { type: "string" },
      count: { type: "integer" },
      ratio: { type: "number" },
      on: { type: "boolean" },
      tags: { type: "array", items: { type: "string" } },
      sizes: { type: "array", items: { type: "number" } },
      options: { type: "object" },
      where: { $ref: "#/$defs/place" },
      either: { anyOf: [{ type: "number" }, { type: "string" }] },
    },
    $defs: { place: { type: "object", properties: { city: { type: "string" } } } },
  };

  it("reads each value as the type the schema gives its key", () => {
    expect(read(schema, "text=42", "count=3", "ratio=0.5", "on=false", 'options={"a":[1]}')).toEqual({
      text: "42",
      count: 3,
      ratio: 0.5,
      on: false,
      options: { a: [1] },
    });
    expect(read(schema, 'where={"city":"Paris"}')).toEqual({ where: { city: "Paris" } });
    expect(read(schema, "either=7", "text=a=b")).toEqual({ either: 7, text: "a=b" });
    expect(read(schema, "either=seven")).toEqual({ either: "seven" });
  });

  it("collects a repeated array key, or takes a JSON array", () => {
    expect(read(schema, "tags=a", "tags=b", "sizes=1", "sizes=2.5")).toEqual({ tags: ["a", "b"], sizes: [1, 2.5] });
    expect(read(schema, 'tags=["x","y"]')).toEqual({ tags: ["x", "y"] });
  });

  it("takes a whole JSON object, with key=value words on top", () => {
    expect(read(schema, '{"text":"hi","count":1}', "count=2")).toEqual({ text: "hi", count: 2 });
  });

  it("rejects a key the tool does not declare, naming the ones it does, unless the schema takes others", () => {
    expect(() => read(schema, "bogus=1")).toThrow(
      'The tool t has no argument "bogus" (its arguments: text, count, ratio, on, tags, sizes, options, where, either)',
    );
    expect(read({ ...schema, additionalProperties: true }, "colour=red")).toEqual({ colour: "red" });
    expect(read({ ...schema, additionalProperties: { type: "number" } }, "size=2")).toEqual({ size: 2 });
    expect(read({ ...schema, patternProperties: { "^x-": {} } }, "x-y=1")).toEqual({ "x-y": "1" });
    expect(read({ type: "object" }, "anything=1")).toEqual({ anything: "1" });
  });

  it("rejects values that do not fit, missing required keys and keys the schema forbids", () => {
    expect(() => read(schema, "count=1.5")).toThrow("count=1.5: expected an integer");
    expect(() => read(schema, "on=yes")).toThrow("expected a boolean");
    expect(() => read({ ...schema, required: ["text"] }, "count=1")).toThrow("t needs text=…");
    expect(() => read({ ...schema, additionalProperties: false }, "colour=red")).toThrow(/no argument "colour"/);
    expect(() => parseArgumentWords(["oops"])).toThrow(/key=value/);
    expect(() => parseArgumentWords(["--json"])).toThrow(/options go before the server/);
    expect(() => parseArgumentWords(["{nope"])).toThrow(/do not parse/);
  });
});

describe("prompt arguments", () => {
  const prompt = {
    name: "p",
    arguments: [{ name: "city", required: true }, { name: "state" }],
  };
  it("are strings, checked against the declared names", () => {
    expect(promptArguments(prompt, parseArgumentWords(["city=Paris", '{"state": 75}']))).toEqual({
      city: "Paris",
      state: "75",
    });
    expect(() => promptArguments(prompt, parseArgumentWords(["state=x"]))).toThrow("needs city=…");
    expect(() => promptArguments(prompt, parseArgumentWords(["city=x", "zip=1"]))).toThrow(/no argument "zip"/);
  });
});
