import { afterEach, describe, expect, it } from "vitest";
import {
  compileJsonSchema,
  type JsonSchemaValidator,
  jsonSchemaValidatorInUse,
  setJsonSchemaValidator,
} from "../src/schema/index.js";

type Case = { schema: Record<string, unknown>; valid: unknown[]; invalid: [value: unknown, message: RegExp][] };

const point = { type: "object", properties: { x: { type: "number" } }, required: ["x"] };

/** The same verdicts from both validators: Ajv (generated code) and @cfworker/json-schema (no code generation). */
const CASES: Record<string, Case> = {
  "types, required and additionalProperties": {
    schema: {
      type: "object",
      properties: { a: { type: "number" }, b: { type: "string" } },
      required: ["a"],
      additionalProperties: false,
    },
    valid: [{ a: 1 }, { a: 1.5, b: "x" }],
    invalid: [
      [{ a: "1" }, /^a: /],
      [{}, /a/],
      [{ a: 1, c: true }, /c/],
    ],
  },
  "integers, bounds, enum and const": {
    schema: {
      type: "object",
      properties: {
        n: { type: "integer", minimum: 1, maximum: 10 },
        color: { enum: ["red", "green"] },
        v: { const: 2 },
      },
    },
    valid: [{ n: 1, color: "red", v: 2 }, {}],
    invalid: [
      [{ n: 1.5 }, /^n: /],
      [{ n: 11 }, /^n: /],
      [{ color: "blue" }, /^color: /],
      [{ v: 3 }, /^v: /],
    ],
  },
  formats: {
    schema: {
      type: "object",
      properties: { email: { type: "string", format: "email" }, at: { type: "string", format: "date-time" } },
    },
    valid: [{ email: "ada@example.com", at: "2025-11-25T10:00:00Z" }],
    invalid: [
      [{ email: "not an address" }, /^email: /],
      [{ at: "yesterday" }, /^at: /],
    ],
  },
  "nested arrays": {
    schema: {
      type: "object",
      properties: { rows: { type: "array", items: { type: "array", items: { type: "integer" } } } },
    },
    valid: [{ rows: [[1, 2], []] }],
    invalid: [[{ rows: [[1], [2, "x"]] }, /^rows\.1\.1: /]],
  },
  "$defs and $ref (2020-12)": {
    schema: { type: "object", properties: { from: { $ref: "#/$defs/point" } }, $defs: { point } },
    valid: [{ from: { x: 0 } }],
    invalid: [[{ from: { x: "0" } }, /^from\.x: /]],
  },
  "definitions and $ref (draft-07)": {
    schema: {
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      properties: { from: { $ref: "#/definitions/point" } },
      definitions: { point },
    },
    valid: [{ from: { x: 0 } }],
    invalid: [[{ from: {} }, /from/]],
  },
  "anyOf and unknown keywords (x-mcp-header)": {
    schema: {
      type: "object",
      properties: { id: { anyOf: [{ type: "string" }, { type: "integer" }], "x-mcp-header": "Id" } },
    },
    valid: [{ id: "a" }, { id: 1 }],
    invalid: [[{ id: 1.5 }, /^id: /]],
  },
};

const deepFreeze = <T>(value: T): T => {
  if (typeof value === "object" && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
};

afterEach(() => setJsonSchemaValidator("auto"));

describe.each(["ajv", "cfworker"] satisfies JsonSchemaValidator[])("JSON Schema validation with %s", (validator) => {
  for (const [name, { schema, valid, invalid }] of Object.entries(CASES)) {
    it(name, async () => {
      setJsonSchemaValidator(validator);
      expect(jsonSchemaValidatorInUse()).toBe(validator);
      const published = JSON.stringify(schema);
      // A frozen schema compiles too: the validator never writes into the published schema.
      const validate = compileJsonSchema(deepFreeze(structuredClone(schema)));
      for (const value of valid) expect(await validate(value), JSON.stringify(value)).toEqual({ ok: true, value });
      for (const [value, message] of invalid) {
        const result = await validate(value);
        expect(result.ok, JSON.stringify(value)).toBe(false);
        expect(result.ok ? "" : result.message).toMatch(message);
      }
      expect(JSON.stringify(schema)).toBe(published);
    });
  }

  it("answers synchronously once the schema is compiled", async () => {
    setJsonSchemaValidator(validator);
    const validate = compileJsonSchema({ type: "object" });
    expect(validate({})).toBeInstanceOf(Promise); // the first call loads and compiles
    await validate({});
    expect(validate({})).toEqual({ ok: true, value: {} });
  });
});

describe("choosing the JSON Schema validator", () => {
  it("uses Ajv where code generation is allowed, as on Node by default", () => {
    expect(jsonSchemaValidatorInUse()).toBe("ajv");
  });

  it("refuses an unknown name, naming the choices", () => {
    expect(() => setJsonSchemaValidator("fast" as never)).toThrow('use "auto", "ajv" or "cfworker"');
  });
});
