import { describe, expect, it } from "vitest";
import { CompileError } from "../../module/compile.js";
import { failureLine } from "./failure.js";
import { LoadFailure } from "./generation.js";

// What a client of mcpkit dev is told when the module did not load: one line that names
// the file and line, never the stack or what else the module printed.

describe("the line a client is told", () => {
  it("is mcpkit serve's own summary, without the stack or the module's other output", () => {
    const stderr = [
      "connecting to the database…",
      "mcpkit: src/server.ts threw while loading, at src/settings.ts:3:21: Error: API_KEY is not set",
      "    at file:///home/ada/project/src/settings.ts:3:21",
      "    at ModuleJob.run (node:internal/modules/esm/module_job:234:25)",
    ].join("\n");
    expect(failureLine("src/server.ts", new LoadFailure(stderr))).toBe(
      "src/server.ts threw while loading, at src/settings.ts:3:21: Error: API_KEY is not set",
    );
  });

  it("names the module and the compiler's first message when it did not compile", () => {
    const error = new CompileError('src/server.ts:2:12: Unexpected ";"\nsrc/server.ts:9:1: Unexpected "}"');
    expect(failureLine("src/server.ts", error)).toBe('src/server.ts did not load: src/server.ts:2:12: Unexpected ";"');
  });

  it("drops stack frames from any other failure, and keeps a long one short", () => {
    const crash = new LoadFailure("Error: spawn ENOENT\n    at ChildProcess._handle.onexit (node:internal)");
    expect(failureLine("server.mjs", crash)).toBe("server.mjs did not load: Error: spawn ENOENT");
    const framesFirst = new LoadFailure("    at file:///srv/app/server.mjs:1:7\nError: boom");
    expect(failureLine("server.mjs", framesFirst)).toBe("server.mjs did not load: Error: boom");
    expect(failureLine("server.mjs", new LoadFailure("x".repeat(2000))).length).toBeLessThanOrEqual(
      "server.mjs did not load: ".length + 501,
    );
  });
});
