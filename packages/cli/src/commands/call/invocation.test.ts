import { describe, expect, it } from "vitest";
import { UsageError } from "./exit-codes.js";
import { countDashed, parseInvocation } from "./invocation.js";

// Splitting `mcpkit call`'s command line: the server (a URL, or a command after --), the
// action and its words.

describe("the command line's shape", () => {
  it("takes a URL, then the action and its words", () => {
    expect(parseInvocation(["http://localhost:3000/mcp", "call", "echo", "text=hi"], 0)).toEqual({
      target: { kind: "http", url: new URL("http://localhost:3000/mcp") },
      action: "call",
      args: ["echo", "text=hi"],
    });
    expect(parseInvocation(["https://example.com/mcp"], 0).action).toBe("info");
  });

  it("reads a word that names no action as a tool to call, before -- or after a URL", () => {
    const call = { action: "call", args: ["echo", "text=hi"] };
    expect(parseInvocation(["http://localhost:3000/mcp", "echo", "text=hi"], 0)).toMatchObject(call);
    expect(parseInvocation(["echo", "text=hi", "node", "s.js"], 2)).toMatchObject(call);
    // After the command the server's own words cannot be told from a tool's name: `call` says it.
    expect(parseInvocation(["node", "s.js", "echo"], 3)).toMatchObject({ action: "info", args: [] });
  });

  it("takes a command after --, with the action before -- or after the command", () => {
    const server = ["node", "server.js", "--stdio"];
    expect(parseInvocation(["tools", ...server], 3)).toEqual({
      target: { kind: "stdio", command: "node", args: ["server.js", "--stdio"] },
      action: "tools",
      args: [],
    });
    expect(parseInvocation([...server, "call", "read", "x=1"], 6)).toEqual({
      target: { kind: "stdio", command: "node", args: ["server.js", "--stdio"] },
      action: "call",
      args: ["read", "x=1"],
    });
    // Before --, everything after it is the server's, action words included.
    expect(parseInvocation(["prompts", "node", "s.js", "tools"], 3).target).toEqual({
      kind: "stdio",
      command: "node",
      args: ["s.js", "tools"],
    });
    expect(parseInvocation(["node", "s.js"], 2).action).toBe("info");
  });

  it("finds the -- in the raw arguments", () => {
    expect(countDashed(["node", "mcpkit", "call", "tools", "--", "node", "s.js"])).toBe(2);
    expect(countDashed(["node", "mcpkit", "call", "http://x/mcp"])).toBe(0);
  });

  it("says what is wrong with a malformed command line", () => {
    expect(() => parseInvocation([], 0)).toThrow(/Name a server/);
    expect(() => parseInvocation(["tools"], 0)).toThrow(/not a URL.*after --/);
    expect(() => parseInvocation(["http://x/mcp", "a=1"], 0)).toThrow(/"a=1" is an argument: name the tool first/);
    expect(() => parseInvocation(["http://x/mcp", "node"], 1)).toThrow(/either a URL or a command/);
    expect(() => parseInvocation(["tools"], 0)).toThrow(UsageError);
  });
});
