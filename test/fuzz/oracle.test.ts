import { McpError } from "mcpkit/jsonrpc";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { MemoryDriver } from "./memory-driver.js";
import { newFigures, problemWith } from "./oracle.js";
import { fuzz } from "./runner.js";

// The fuzz is only as good as what it notices: these show that it fails, and how it says so.

describe("fuzz oracle", () => {
  const figures = newFigures("test", 1);
  it("accepts the spec's errors and results", () => {
    const quoted = {
      jsonrpc: "2.0",
      id: null,
      error: { code: -32700, message: 'Parse error: "A:" is not valid JSON' },
    };
    expect(problemWith(quoted, figures)).toBeUndefined();
    const origin = { jsonrpc: "2.0", error: { code: -32600, message: "Forbidden: Origin file:// is not allowed" } };
    expect(problemWith(origin, figures)).toBeUndefined();
    expect(
      problemWith({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error: x" } }, figures),
    ).toBeUndefined();
    expect(problemWith({ jsonrpc: "2.0", id: 1, result: {} }, figures)).toBeUndefined();
  });

  it.each([
    [{ jsonrpc: "2.0", id: 1, error: { code: -32099, message: "odd" } }, "is not the spec's"],
    [{ jsonrpc: "2.0", id: 1, error: { code: -32603, message: "" } }, "without a message"],
    [{ jsonrpc: "2.0", id: 1, error: { code: -32603, message: "x\n    at run (/app/dist/server.js:10:5)" } }, "leaked"],
    [{ jsonrpc: "2.0", id: 1, error: { code: -32603, message: "x", data: "/home/me/mcp/src/tools.ts" } }, "leaked"],
    [{ jsonrpc: "2.0", id: 1, error: { code: -32603, message: "in file:///srv/app/index.mjs" } }, "leaked"],
    [{ jsonrpc: "2.0", id: 1, error: { code: -32603, message: "x", data: { at: "C:\\app\\dist\\x.js" } } }, "leaked"],
    [{ jsonrpc: "1.0", id: 1, result: {} }, 'not "2.0"'],
  ])("flags %j", (message, problem) => {
    expect(problemWith(message, figures)).toContain(problem);
  });

  it("fails a fuzz run against a server that leaks, naming the seed and the shrunk frames", async () => {
    // A tool that answers bad arguments with a made-up code and a path: the fuzz must find it.
    const leaky = new MemoryDriver((server) => {
      server.tool("echo", { input: z.object({ text: z.unknown() }) }, ({ text }) => {
        if (typeof text !== "string") throw new McpError(-32099, "bad text at /srv/app/src/echo.ts:3:7");
        return text;
      });
    });
    try {
      await expect(fuzz(leaky, 400)).rejects.toThrow(
        /MCPKIT_FUZZ_SEED=\d+[\s\S]*Counterexample[\s\S]*(is not the spec's|leaked)/,
      );
    } finally {
      await leaky.close();
    }
  });
});
