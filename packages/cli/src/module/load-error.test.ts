import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { moduleLoadError, whereThrown } from "./load-error.js";

// Where a stack says a module's throw came from: the user's own frame, not Node's, a
// package's or mcpkit's.

const here = (path: string) => join(process.cwd(), path);

describe("whereThrown", () => {
  it("skips Node's frames to the user's file", () => {
    const stack = `SyntaxError: "undefined" is not valid JSON\n    at JSON.parse (<anonymous>)\n    at ${pathToFileURL(here("src/config.mjs")).href}:3:23\n    at ModuleJob.run (node:internal/modules/esm/module_job:234:25)`;
    expect(whereThrown(stack)).toBe("src/config.mjs:3:23");
  });

  it("skips a package's frames to the user's call", () => {
    const stack = `Error: bad\n    at parse (${here("node_modules/yaml/dist/index.js")}:10:5)\n    at load (${here("src/server.ts")}:7:3)`;
    expect(whereThrown(stack)).toBe("src/server.ts:7:3");
  });

  it("takes a package's frame when no frame is the user's", () => {
    const stack = `Error: bad\n    at parse (${here("node_modules/yaml/dist/index.js")}:10:5)`;
    expect(whereThrown(stack)).toBe("node_modules/yaml/dist/index.js:10:5");
  });

  it("reads the place Node puts on a stack's first line", () => {
    expect(whereThrown(`${pathToFileURL(here("x.mjs")).href}:2\nconst = 2;\n      ^\n\nSyntaxError: x`)).toBe(
      "x.mjs:2",
    );
  });

  it("finds nothing in a stack of Node's frames only", () => {
    expect(
      whereThrown("Error: x\n    at compileSourceTextModule (node:internal/modules/esm/utils:346:16)"),
    ).toBeUndefined();
  });
});

describe("moduleLoadError", () => {
  it("says what was thrown when it is not an Error", () => {
    expect(moduleLoadError("nope", here("src/a.mjs")).message).toBe(
      "src/a.mjs threw while loading: nope (not an Error, so no stack says where)",
    );
  });
});
