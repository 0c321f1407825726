import { McpError } from "mcpkit";
import { describe, expect, it } from "vitest";
import { parseArgumentWords, promptArguments, toolArguments } from "../../packages/cli/src/commands/call/arguments.js";
import { clientOptions } from "../../packages/cli/src/commands/call/connect.js";
import { EXIT, exitCodeFor, Interrupted, UsageError } from "../../packages/cli/src/commands/call/exit-codes.js";
import { countDashed, parseInvocation } from "../../packages/cli/src/commands/call/invocation.js";

// The pure parts of `mcpkit call`: splitting the command line, reading key=value by the
// tool's schema, and mapping failures to exit codes. The binary is tested end to end in
// the other files of this folder.

const tool = (inputSchema: Record<string, unknown>) => ({ name: "t", inputSchema });
const read = (schema: Record<string, unknown>, ...words: string[]) =>
  toolArguments(tool(schema), parseArgumentWords(words));

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

describe("connection options", () => {
  it("name the revisions --protocol takes when it is given another", () => {
    expect(clientOptions({ protocol: "2025-06-18" }, {}).protocolVersion).toBe("2025-06-18");
    expect(() => clientOptions({ protocol: "2099-01-01" }, {})).toThrow(
      "--protocol 2099-01-01 is not a revision mcpkit speaks; choose one of 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25, 2026-07-28",
    );
  });

  it("take --timeout as a duration: a bare number in seconds, or with its unit; 0 waits forever", () => {
    expect(clientOptions({ timeout: "90" }, {}).timeoutMs).toBe(90_000);
    expect(clientOptions({ timeout: "2m" }, {}).timeoutMs).toBe(120_000);
    expect(clientOptions({ timeout: "500ms" }, {}).timeoutMs).toBe(500);
    expect(clientOptions({ timeout: "0" }, {}).timeoutMs).toBe(0);
    expect(() => clientOptions({ timeout: "soon" }, {})).toThrow(
      '--timeout takes a duration such as 90 (seconds), 90s, 15m or 2h, not "soon"',
    );
  });
});

describe("tool arguments from key=value", () => {
  const schema = {
    type: "object",
    properties: {
      text: { type: "string" },
      count: { type: "integer" },
      ratio: { type: "number" },
      on: { type: "boolean" },
      tags: { type: "array", items: { type: "string" } },
      sizes: { type: "array", items: { type: "number" } },
      options: { type: "object" },
      where: { $ref: "#/$defs/place" },
      either: { anyOf: [{ type: "number" }, { type: "string" }] },
    },
    $defs: { place: { type: "object", properties: { city: { type: "string" } } } },
  };

  it("reads each value as the type the schema gives its key", () => {
    expect(read(schema, "text=42", "count=3", "ratio=0.5", "on=false", 'options={"a":[1]}')).toEqual({
      text: "42",
      count: 3,
      ratio: 0.5,
      on: false,
      options: { a: [1] },
    });
    expect(read(schema, 'where={"city":"Paris"}')).toEqual({ where: { city: "Paris" } });
    expect(read(schema, "either=7", "text=a=b")).toEqual({ either: 7, text: "a=b" });
    expect(read(schema, "either=seven")).toEqual({ either: "seven" });
  });

  it("collects a repeated array key, or takes a JSON array", () => {
    expect(read(schema, "tags=a", "tags=b", "sizes=1", "sizes=2.5")).toEqual({ tags: ["a", "b"], sizes: [1, 2.5] });
    expect(read(schema, 'tags=["x","y"]')).toEqual({ tags: ["x", "y"] });
  });

  it("takes a whole JSON object, with key=value words on top", () => {
    expect(read(schema, '{"text":"hi","count":1}', "count=2")).toEqual({ text: "hi", count: 2 });
  });

  it("rejects a key the tool does not declare, naming the ones it does, unless the schema takes others", () => {
    expect(() => read(schema, "bogus=1")).toThrow(
      'The tool t has no argument "bogus" (its arguments: text, count, ratio, on, tags, sizes, options, where, either)',
    );
    expect(read({ ...schema, additionalProperties: true }, "colour=red")).toEqual({ colour: "red" });
    expect(read({ ...schema, additionalProperties: { type: "number" } }, "size=2")).toEqual({ size: 2 });
    expect(read({ ...schema, patternProperties: { "^x-": {} } }, "x-y=1")).toEqual({ "x-y": "1" });
    expect(read({ type: "object" }, "anything=1")).toEqual({ anything: "1" });
  });

  it("rejects values that do not fit, missing required keys and keys the schema forbids", () => {
    expect(() => read(schema, "count=1.5")).toThrow("count=1.5: expected an integer");
    expect(() => read(schema, "on=yes")).toThrow("expected a boolean");
    expect(() => read({ ...schema, required: ["text"] }, "count=1")).toThrow("t needs text=…");
    expect(() => read({ ...schema, additionalProperties: false }, "colour=red")).toThrow(/no argument "colour"/);
    expect(() => parseArgumentWords(["oops"])).toThrow(/key=value/);
    expect(() => parseArgumentWords(["--json"])).toThrow(/options go before the server/);
    expect(() => parseArgumentWords(["{nope"])).toThrow(/do not parse/);
  });
});

describe("prompt arguments", () => {
  const prompt = {
    name: "p",
    arguments: [{ name: "city", required: true }, { name: "state" }],
  };
  it("are strings, checked against the declared names", () => {
    expect(promptArguments(prompt, parseArgumentWords(["city=Paris", '{"state": 75}']))).toEqual({
      city: "Paris",
      state: "75",
    });
    expect(() => promptArguments(prompt, parseArgumentWords(["state=x"]))).toThrow("needs city=…");
    expect(() => promptArguments(prompt, parseArgumentWords(["city=x", "zip=1"]))).toThrow(/no argument "zip"/);
  });
});

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
