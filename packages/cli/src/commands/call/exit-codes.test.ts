import { McpError } from "mcpkit";
import { describe, expect, it } from "vitest";
import { EXIT, exitCodeFor, Interrupted, UsageError } from "./exit-codes.js";

describe("exit codes", () => {
  it("tell usage, protocol and connection failures apart", () => {
    expect(exitCodeFor(new UsageError("x"))).toBe(EXIT.usage);
    expect(exitCodeFor(new McpError(-32602, "bad params"))).toBe(EXIT.protocol);
    expect(exitCodeFor(new McpError(-1, "User rejected sampling request"))).toBe(EXIT.protocol);
    expect(exitCodeFor(new McpError(-32000, "Connection closed"))).toBe(EXIT.connection);
    expect(exitCodeFor(new McpError(-32001, "Request timed out"))).toBe(EXIT.connection);
    expect(exitCodeFor(new Error("Could not start x: spawn x ENOENT"))).toBe(EXIT.connection);
    expect(exitCodeFor(new Interrupted())).toBe(EXIT.interrupted);
  });
});
