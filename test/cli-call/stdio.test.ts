import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { MCPKIT_SERVER, mcpkit, requireBuild, stopAll } from "./helpers.js";

// `mcpkit call` against `mcpkit serve everything --stdio`, both the real binary; nothing
// here is a terminal, so nothing is asked and no progress bar is drawn.

beforeAll(requireBuild);
afterEach(stopAll);

const call = (...args: string[]) => mcpkit(["call", ...args]);
/** The words after `call`: options and action first, then `--` and the server. */
const onServer = (...args: string[]) => call(...args, "--", ...MCPKIT_SERVER);

describe("mcpkit call over stdio against mcpkit serve everything", () => {
  it("lists the tools with the action after the server's command (mcpkit call -- node … tools)", async () => {
    const run = await call("--", ...MCPKIT_SERVER, "tools");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("add(a: number, b: number) [read-only]\n  Add two numbers: Adds a and b");
    expect(run.stdout).toContain("echo(text: string)");
    expect(run.stdout).toContain('contactMethod?: "phone" | "email"');
    expect(run.stderr).toBe("");
  });

  it("prints JSON with --json, in the wire's shape", async () => {
    const run = await onServer("--json", "tools");
    expect(run.code).toBe(0);
    const { tools } = JSON.parse(run.stdout) as { tools: { name: string; inputSchema: object }[] };
    expect(tools.find((t) => t.name === "add")?.inputSchema).toMatchObject({ required: ["a", "b"] });
  });

  it("says who the server is and which revision was negotiated", async () => {
    const modern = await onServer("info");
    expect(modern.code).toBe(0);
    expect(modern.stdout).toMatch(/^mcpkit-everything 0\.1\.0/);
    expect(modern.stdout).toContain("protocol 2026-07-28 (stateless)");
    expect(modern.stdout).toContain("capabilities: logging, tools (listChanged)");
    const legacy = await onServer("--protocol", "2025-11-25", "--json");
    expect(JSON.parse(legacy.stdout)).toMatchObject({ protocolVersion: "2025-11-25", era: "legacy" });
  });

  it("calls a tool with key=value read by its schema, or with a JSON object", async () => {
    const run = await onServer("call", "add", "a=1", "b=2.5");
    expect(run).toMatchObject({ code: 0, stdout: '{"sum":3.5}\n' });
    const json = await onServer("--json", "call", "add", '{"a": 2, "b": 3}');
    expect(JSON.parse(json.stdout)).toMatchObject({ structuredContent: { sum: 5 } });
  });

  it("describes media and resources in a result instead of dumping base64", async () => {
    const run = await onServer("call", "test_multiple_content_types");
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      "Multiple content types test:\n[image image/png, 69 bytes]\n[resource test://mixed-content-resource application/json]\n" +
        '{"test":"data","value":123}\n',
    );
  });

  it("lists resources and templates, reads text and writes a binary resource raw to a pipe", async () => {
    const resources = await onServer("resources");
    expect(resources.stdout).toContain("test://static-text  Static text, text/plain\n  A static text resource");
    const templates = await onServer("templates");
    expect(templates.stdout).toContain("test://template/{id}/data  template-data, application/json");
    const text = await onServer("read", "test://static-text");
    expect(text).toMatchObject({ code: 0, stdout: "This is the content of the static text resource." });
    const binary = await onServer("read", "test://static-binary");
    expect(binary.code).toBe(0);
    expect(Buffer.from(binary.stdout, "latin1").subarray(1, 4).toString()).toBe("PNG");
  });

  it("gets prompts and completes their arguments", async () => {
    const prompts = await onServer("prompts");
    expect(prompts.stdout).toContain("test_prompt_with_arguments(arg1, arg2)");
    const prompt = await onServer("prompt", "test_prompt_with_arguments", "arg1=x", "arg2=y");
    expect(prompt).toMatchObject({ code: 0, stdout: "user: Prompt with arguments: arg1='x', arg2='y'\n" });
    const values = await onServer("complete", "prompt", "test_prompt_with_arguments", "arg2=pa", "arg1=park");
    expect(values.stdout.split("\n")).toEqual(["paris", "party", "pasta", "patio", ""]);
    const none = await onServer("complete", "prompt", "test_prompt_with_arguments", "arg1=zz");
    expect(none).toMatchObject({ code: 0, stdout: "" });
    expect(none.stderr).toContain("(no completions for arg1=zz)");
    const ids = await onServer("--json", "complete", "resource", "test://template/{id}/data", "id=14");
    expect(JSON.parse(ids.stdout).completion.values).toEqual([
      "14",
      "140",
      "141",
      "142",
      "143",
      "144",
      "145",
      "146",
      "147",
      "148",
      "149",
    ]);
  });
});

describe("exit codes", () => {
  it("1 when the tool reports an error (isError), with its message on stderr", async () => {
    const run = await onServer("call", "test_error_handling");
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("The tool reported an error:\nThis tool intentionally returns an error for testing");
    const json = await onServer("--json", "call", "test_error_handling");
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ isError: true });
  });

  it("2 for usage errors: unknown tool or option, arguments that do not fit", async () => {
    const unknownTool = await onServer("call", "ad", "a=1");
    expect(unknownTool.code).toBe(2);
    expect(unknownTool.stderr).toContain('The server has no tool "ad"; did you mean add?');
    const badValue = await onServer("call", "add", "a=one", "b=2");
    expect(badValue.code).toBe(2);
    expect(badValue.stderr).toContain("a=one: expected a number");
    // Found before anything starts: no server is needed to say so.
    const noTool = await call("a=1", "--", "nonexistent-command");
    expect(noTool.code).toBe(2);
    expect(noTool.stderr).toContain('"a=1" is an argument: name the tool first');
    expect((await call("--no-such-option", "tools", "--", ...MCPKIT_SERVER)).code).toBe(2);
    expect((await call("tools")).stderr).toContain('"tools" is not a URL');
  });

  it("3 when the server answers with a JSON-RPC error, which is shown with its code and data", async () => {
    const run = await onServer("read", "test://missing");
    expect(run.code).toBe(3);
    expect(run.stderr).toContain("Resource not found: test://missing (JSON-RPC error -32602)");
    expect(run.stderr).toContain('{"uri":"test://missing"}');
    const json = await onServer("--json", "read", "test://missing");
    expect(JSON.parse(json.stderr)).toEqual({
      error: { message: "Resource not found: test://missing", code: -32602, data: { uri: "test://missing" } },
      exitCode: 3,
    });
  });

  it("3 when a tool needs elicitation and there is no terminal to ask at", async () => {
    const run = await onServer("call", "test_elicitation", "message=hi");
    expect(run.code).toBe(3);
    expect(run.stderr).toContain("form elicitation capability");
    expect(run.stderr).toContain("only at a terminal");
  });

  it("4 when the server cannot start or dies, with the end of its stderr", async () => {
    const missing = await call("tools", "--", "/nonexistent/mcp-server");
    expect(missing.code).toBe(4);
    expect(missing.stderr).toContain("Could not start /nonexistent/mcp-server: no such file");
    const dies = await call(
      "tools",
      "--",
      process.execPath,
      "-e",
      'console.error("no database configured"); process.exit(3)',
    );
    expect(dies.code).toBe(4);
    expect(dies.stderr).toContain("Server process exited with code 3");
    expect(dies.stderr).toContain("The server's stderr ended with:\n  no database configured");
  });
});
