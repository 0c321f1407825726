import { describe, expect, it } from "vitest";
import {
  argumentsOf,
  choicesOf,
  initialValue,
  isBlankObject,
  propertiesOf,
  requiredOf,
  resolve,
  type Schema,
  schemaOf,
  toggleChoice,
  typeOf,
  withField,
} from "./schema.js";

// How the form works a JSON Schema out, before it draws anything.

describe("resolve", () => {
  it("follows a local $ref, keeping the referring schema's own keywords", () => {
    const root: Schema = {
      $defs: { city: { type: "string", title: "City" } },
      properties: { home: { $ref: "#/$defs/city", description: "Where you live" } },
    };
    expect(resolve(root.properties?.home, root)).toEqual({
      type: "string",
      title: "City",
      description: "Where you live",
    });
  });

  it("reads JSON Pointer escapes in a $ref (~1 is /, ~0 is ~)", () => {
    const root: Schema = { definitions: { "a/b~c": { type: "number" } } };
    expect(resolve({ $ref: "#/definitions/a~1b~0c" }, root)).toEqual({ type: "number" });
  });

  it("stops following a $ref that refers to itself", () => {
    const root: Schema = { $defs: { loop: { $ref: "#/$defs/loop" } } };
    expect(() => resolve({ $ref: "#/$defs/loop" }, root)).not.toThrow();
  });

  it("merges allOf members' properties and required names", () => {
    const merged = resolve(
      {
        allOf: [
          { type: "object", properties: { a: { type: "string" } }, required: ["a"] },
          { properties: { b: { type: "number" } }, required: ["b"] },
        ],
      },
      {},
    );
    expect(merged.type).toBe("object");
    expect(Object.keys(merged.properties ?? {})).toEqual(["a", "b"]);
    expect(merged.required).toEqual(["a", "b"]);
  });

  it("takes what is not a schema as one that allows anything", () => {
    expect(resolve(undefined, {})).toEqual({});
    expect(schemaOf("text")).toEqual({});
    expect(schemaOf([1])).toEqual({});
  });
});

describe("typeOf", () => {
  it.each<[string, Schema, { type: string | undefined; nullable: boolean }]>([
    ["a plain type", { type: "integer" }, { type: "integer", nullable: false }],
    ["a type list with null", { type: ["string", "null"] }, { type: "string", nullable: true }],
    ["anyOf a type and null", { anyOf: [{ type: "number" }, { type: "null" }] }, { type: "number", nullable: true }],
    ["OpenAPI's nullable", { type: "boolean", nullable: true }, { type: "boolean", nullable: true }],
    ["properties without a type", { properties: {} }, { type: "object", nullable: false }],
    ["an enum without a type", { enum: ["a"] }, { type: "string", nullable: false }],
    ["two types at once", { type: ["string", "number"] }, { type: undefined, nullable: false }],
  ])("reads %s", (_what, schema, expected) => {
    expect(typeOf(schema)).toEqual(expected);
  });
});

describe("choicesOf", () => {
  it("titles an enum's values by enumNames, or by themselves", () => {
    expect(choicesOf({ enum: ["s", "m"], enumNames: ["Small"] })).toEqual([
      { value: "s", title: "Small" },
      { value: "m", title: "m" },
    ]);
  });

  it("reads titled consts of oneOf (or anyOf)", () => {
    expect(choicesOf({ oneOf: [{ const: 1, title: "One" }, { const: 2 }] })).toEqual([
      { value: 1, title: "One" },
      { value: 2, title: "2" },
    ]);
  });

  it("is no choice when a variant is not a const", () => {
    expect(choicesOf({ oneOf: [{ const: 1 }, { type: "string" }] })).toBeUndefined();
    expect(choicesOf({ type: "string" })).toBeUndefined();
  });

  it("keeps a multiple choice's ticks in the choices' order", () => {
    const choices = choicesOf({ enum: ["a", "b", "c"] }) ?? [];
    expect(toggleChoice(choices, ["c"], "a", true)).toEqual(["a", "c"]);
    expect(toggleChoice(choices, ["a", "c"], "a", false)).toEqual(["c"]);
  });
});

describe("initialValue", () => {
  it("starts from defaults, and fills the required objects in", () => {
    const schema: Schema = {
      type: "object",
      properties: {
        units: { type: "string", default: "metric" },
        where: { type: "object", properties: { city: { type: "string", default: "Oslo" } } },
        size: { type: "object", properties: { n: { type: "number", default: 1 } } },
        note: { type: "string" },
      },
      required: ["size"],
    };
    expect(initialValue(schema)).toEqual({ units: "metric", size: { n: 1 } });
  });

  it("copies a default, so editing the form does not change the schema", () => {
    const schema: Schema = { type: "array", default: ["a"] };
    const value = initialValue(schema) as string[];
    value.push("b");
    expect(schema.default).toEqual(["a"]);
  });

  it("takes a const as the value, and gives nothing for a schema with no start", () => {
    expect(initialValue({ const: "fixed" })).toBe("fixed");
    expect(initialValue({ type: "string" })).toBeUndefined();
    expect(initialValue("not a schema")).toBeUndefined();
  });
});

describe("values", () => {
  it("calls an object whose fields are unset or cleared blank", () => {
    expect(isBlankObject({})).toBe(true);
    expect(isBlankObject({ a: undefined, b: "" })).toBe(true);
    expect(isBlankObject({ a: 0 })).toBe(false);
    expect(isBlankObject([])).toBe(false);
  });

  it("sets a field, and removes it when it becomes undefined", () => {
    expect(withField({ a: 1 }, "b", 2)).toEqual({ a: 1, b: 2 });
    expect(withField({ a: 1, b: 2 }, "b", undefined)).toEqual({ a: 1 });
    expect(withField(undefined, "a", 1)).toEqual({ a: 1 });
  });

  it("sends a form's value as arguments only when it is an object", () => {
    expect(argumentsOf({ a: 1 })).toEqual({ a: 1 });
    expect(argumentsOf(undefined)).toEqual({});
    expect(argumentsOf([1])).toEqual({});
  });

  it("ignores required names and properties that are not what JSON Schema says", () => {
    expect(requiredOf({ required: ["a", 3, "b"] as unknown as string[] })).toEqual(["a", "b"]);
    expect(requiredOf({ required: "a" as unknown as string[] })).toEqual([]);
    expect(propertiesOf({ properties: { a: "text" as unknown as Schema } })).toEqual([["a", {}]]);
  });
});
