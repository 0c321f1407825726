import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { assertBuilt, run } from "./processes.js";

// Cloudflare Workers refuse code generation from strings; Node does too when asked, so a
// Node CI catches a regression here without Workers.
const fixture = fileURLToPath(new URL("fixtures/raw-schema-tool.mjs", import.meta.url));
const refusing = (choice: string) => ["--disallow-code-generation-from-strings", fixture, choice];

describe("raw JSON Schema where code generation is refused (node --disallow-code-generation-from-strings)", () => {
  it("checks arguments with the eval-free validator, chosen by itself", async () => {
    assertBuilt();
    expect(JSON.parse(await run(process.execPath, refusing("auto")))).toEqual({
      validator: "cfworker",
      results: [
        { isError: false, text: "3" },
        { isError: true, text: expect.stringMatching(/^Invalid arguments for tool add: a: .*"number"/) },
      ],
      errors: [],
    });
  });

  it("where Ajv is forced, fails the call and tells the operator the real cause", async () => {
    assertBuilt();
    const printed = JSON.parse(await run(process.execPath, refusing("ajv")));
    expect(printed.results).toEqual([{ thrown: "Internal error" }, { thrown: "Internal error" }]);
    expect(printed.errors).toHaveLength(2);
    for (const error of printed.errors) {
      expect(error).toContain(
        "Ajv cannot compile JSON Schemas here: this runtime refuses code generation from strings",
      );
      expect(error).toContain('setJsonSchemaValidator("cfworker")');
      expect(error).not.toContain("Invalid JSON Schema");
    }
  });

  it("keeps Ajv where code generation is allowed", async () => {
    assertBuilt();
    const printed = JSON.parse(await run(process.execPath, [fixture, "auto"]));
    expect(printed.validator).toBe("ajv");
    expect(printed.results[1]).toEqual({ isError: true, text: "Invalid arguments for tool add: a: must be number" });
  });
});
