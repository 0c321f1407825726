import { describe, expect, it } from "vitest";
import { jsonProblem, numberProblem, schemaFacts, stringProblem } from "./checks.js";

// What the form refuses before anything is sent, in the words shown under the field.

describe("stringProblem", () => {
  it("wants a time and a date-time as RFC 3339 writes them", () => {
    expect(stringProblem({ format: "time" }, "14:30")).toBe("Write a time as 14:30:00Z");
    expect(stringProblem({ format: "time" }, "14:30:00Z")).toBeUndefined();
    expect(stringProblem({ format: "time" }, "23:59:60+01:00")).toBeUndefined();
    expect(stringProblem({ format: "date-time" }, "2026-01-31 14:30:00Z")).toBe(
      "Write a date-time as 2026-01-31T14:30:00Z",
    );
    expect(stringProblem({ format: "date-time" }, "2026-01-31T14:30:00.5Z")).toBeUndefined();
  });

  it("never runs a server's pattern, which with its default could hang the tab (ReDoS): the server checks it", () => {
    const started = performance.now();
    expect(stringProblem({ pattern: "^(a+)+$", default: `${"a".repeat(40)}!` }, `${"a".repeat(40)}!`)).toBeUndefined();
    expect(performance.now() - started).toBeLessThan(1000);
    expect(stringProblem({ pattern: "^x$", format: "time" }, "")).toBeUndefined();
  });
});

describe("numberProblem", () => {
  it("applies exclusive bounds given either way (2020-12's numbers, draft-04's true)", () => {
    expect(numberProblem({ exclusiveMinimum: 0 }, 0)).toBe("Must be greater than 0");
    expect(numberProblem({ exclusiveMinimum: 0 }, 0.1)).toBeUndefined();
    expect(numberProblem({ maximum: 10, exclusiveMaximum: true }, 10)).toBe("Must be less than 10");
    expect(numberProblem({ maximum: 10 }, 10)).toBeUndefined();
  });

  it("checks multipleOf without the float error of 0.1 steps", () => {
    expect(numberProblem({ multipleOf: 0.1 }, 0.3)).toBeUndefined();
    expect(numberProblem({ multipleOf: 0.5 }, 0.75)).toBe("Must be a multiple of 0.5");
  });

  it("says nothing of a value that is not a number yet", () => {
    expect(numberProblem({ exclusiveMinimum: 0 }, undefined)).toBeUndefined();
  });
});

describe("jsonProblem", () => {
  it("says why text is not JSON, and that arguments must be an object", () => {
    expect(jsonProblem("{", false)).toMatch(/^Not valid JSON: /);
    expect(jsonProblem("[1]", true)).toBe("The arguments must be a JSON object: { … }");
    expect(jsonProblem("[1]", false)).toBeUndefined();
    expect(jsonProblem("  ", true)).toBeUndefined();
  });
});

describe("schemaFacts", () => {
  it("names the format, the bounds, the lengths and the pattern, in that order", () => {
    expect(
      schemaFacts({ format: "email", minimum: 1, exclusiveMaximum: 9, minLength: 1, maxLength: 2, pattern: "^a" }),
    ).toEqual(["format: email", "≥ 1", "< 9", "at least 1 character", "at most 2 characters", "pattern: ^a"]);
    // A draft-04 flag is not a bound of its own.
    expect(schemaFacts({ maximum: 3, exclusiveMaximum: true })).toEqual(["≤ 3"]);
  });
});
