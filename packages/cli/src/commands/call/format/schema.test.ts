import { describe, expect, it } from "vitest";
import { describeType, signature } from "./schema.js";

// A tool's parameters as `mcpkit call … tools` lists them: a signature a person reads at a
// glance, with optional parameters marked and defaults shown.

describe("a tool's signature", () => {
  it("names each parameter with its type, ? for an optional one, and its default", () => {
    const schema = {
      type: "object",
      properties: {
        city: { type: "string" },
        days: { type: "integer", default: 3 },
        units: { enum: ["metric", "imperial"] },
      },
      required: ["city"],
    };
    expect(signature(schema)).toBe('city: string, days?: integer = 3, units?: "metric" | "imperial"');
    expect(signature({ type: "object" })).toBe("");
  });

  it("reads arrays, unions, constants and references", () => {
    const root = { $defs: { tag: { type: "string" } } };
    expect(describeType({ type: "array", items: { $ref: "#/$defs/tag" } }, root)).toBe("string[]");
    expect(describeType({ type: "array", items: { type: ["string", "null"] } }, root)).toBe("(string | null)[]");
    expect(describeType({ anyOf: [{ type: "number" }, { type: "boolean" }] }, root)).toBe("number | boolean");
    expect(describeType({ oneOf: [{ const: 1 }, { const: 2 }] }, root)).toBe("1 | 2");
    expect(describeType({}, root)).toBe("any");
  });

  it("gives a long enumeration as its type, not its values", () => {
    expect(describeType({ type: "string", enum: ["a", "b", "c", "d", "e", "f", "g"] }, {})).toBe("string");
  });
});
