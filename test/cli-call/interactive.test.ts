import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { KEY, MCPKIT_SERVER, requireBuild, stopAll, Terminal } from "./helpers.js";

// `mcpkit call` on a pseudo-terminal against `mcpkit serve everything --stdio`, which speaks
// 2026-07-28: elicitation and sampling arrive as input requests of the call (multi
// round-trip requests) and are answered by a person at the prompts; `--protocol 2025-11-25`
// makes them JSON-RPC requests from the server instead. The same prompts answer both.

beforeAll(requireBuild);
afterEach(stopAll);

const atTerminal = (...args: string[]) => new Terminal(["call", ...args, "--", ...MCPKIT_SERVER]);

describe("elicitation at the terminal", () => {
  it("asks each field of the form and sends the answers (call test_elicitation message=hi)", async () => {
    const terminal = atTerminal("call", "test_elicitation", "message=hi");
    await terminal.expect("The server asks: hi");
    await terminal.expect("Answer it?");
    terminal.type(KEY.enter);
    await terminal.expect("username (User's response)");
    terminal.type("alice", KEY.enter);
    await terminal.expect("email (User's email address)");
    terminal.type("alice@example.com", KEY.enter);
    expect(await terminal.result()).toEqual({
      code: 0,
      stdout: 'User response: action=accept, content={"username":"alice","email":"alice@example.com"}\n',
    });
  });

  it("declines on the initialize handshake too (--protocol 2025-11-25)", async () => {
    const terminal = atTerminal("--protocol", "2025-11-25", "call", "test_elicitation", "message=Share your email?");
    await terminal.expect("The server asks: Share your email?");
    await terminal.expect("Answer it?");
    terminal.type(KEY.down, KEY.enter);
    expect(await terminal.result()).toEqual({ code: 0, stdout: "User response: action=decline, content={}\n" });
  });

  it("Ctrl+C at a question cancels the elicitation rather than killing the call", async () => {
    const terminal = atTerminal("call", "test_elicitation", "message=hi");
    await terminal.expect("Answer it?");
    terminal.type(KEY.enter);
    await terminal.expect("username");
    terminal.type(KEY.ctrlC);
    expect(await terminal.result()).toEqual({ code: 0, stdout: "User response: action=cancel, content={}\n" });
  });

  it("shows a URL-mode elicitation's address and answers whether the person will open it", async () => {
    const terminal = atTerminal("call", "test_url_elicitation", "url=https://example.com/consent");
    await terminal.expect("The server asks: Please finish in your browser");
    await terminal.expect("https://example.com/consent");
    await terminal.expect("Open this URL in your browser?");
    terminal.type(KEY.enter);
    const { code, stdout } = await terminal.result();
    expect(code).toBe(0);
    expect(stdout).toMatch(/^URL elicitation: action=accept, id=\S+\n$/);
  });

  it("offers each field's default: integer, number, enum and boolean fields by their schema", async () => {
    const terminal = atTerminal("call", "test_elicitation_sep1034_defaults");
    await terminal.expect("Answer it?");
    terminal.type(KEY.enter);
    for (const field of ["User name", "User age", "User score", "User status", "Verification status"]) {
      await terminal.expect(field);
      terminal.type(KEY.enter);
    }
    const { code, stdout } = await terminal.result();
    expect(code).toBe(0);
    expect(stdout).toBe(
      'Elicitation completed: action=accept, content={"name":"John Doe","age":30,"score":95.5,"status":"active","verified":true}\n',
    );
  });
});

describe("sampling at the terminal", () => {
  it("replies as the model, and asks the questions of one round one at a time", async () => {
    // Elicitation, sampling and roots requested in one input_required round, answered in parallel by the client.
    const terminal = atTerminal("--root", "/tmp", "call", "test_input_required_result_multiple_inputs");
    await terminal.expect("Answer it?");
    terminal.type(KEY.enter);
    await terminal.expect("name");
    terminal.type("Grace", KEY.enter);
    await terminal.expect("Generate a greeting");
    await terminal.expect("Reply as the model?");
    terminal.type(KEY.enter);
    await terminal.expect("Reply:");
    terminal.type("Hello there", KEY.enter);
    expect(await terminal.result()).toEqual({ code: 0, stdout: "name=Grace, greeting=Hello there, roots=1\n" });
  });

  it("declined on 2026-07-28, the call cannot finish: exit 3 and a message saying why", async () => {
    const terminal = atTerminal("call", "test_sampling", "prompt=What is 2+2?");
    await terminal.expect("user: What is 2+2?");
    await terminal.expect("Reply as the model?");
    terminal.type(KEY.down, KEY.enter);
    expect(await terminal.result()).toEqual({ code: 3, stdout: "" });
    expect(terminal.text).toContain("You declined the server's sampling request, so the call could not finish");
  });
});

describe("progress", () => {
  it("draws a bar with the server's messages on the terminal, and erases it before the result", async () => {
    const terminal = atTerminal("call", "test_tool_with_progress");
    const { code, stdout } = await terminal.result();
    expect(code).toBe(0);
    expect(stdout).toBe("Progress test completed\n");
    expect(terminal.text).toMatch(/░{24} {3}0% Starting/);
    expect(terminal.text).toMatch(/█{12}░{12} {2}50% Halfway/);
    expect(terminal.text).toMatch(/█{24} 100% Done/);
    // Each draw starts by erasing the line (\r, ESC[2K), and the last one is erased too.
    expect(terminal.raw).toContain("100% Done\r\x1b[2K");
  });
});
