import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { KEY, mcpkit, OFFICIAL_SERVER, requireBuild, stopAll, Terminal } from "./helpers.js";

// `mcpkit call` against the official @modelcontextprotocol/server-everything over stdio: a
// server of another implementation, on the initialize handshake (2025-11-25), which asks
// for sampling and elicitation with JSON-RPC requests rather than input_required results.

beforeAll(requireBuild);
afterEach(stopAll);

const official = (...args: string[]) => mcpkit(["call", ...args, "--", ...OFFICIAL_SERVER]);
const atTerminal = (...args: string[]) => new Terminal(["call", ...args, "--", ...OFFICIAL_SERVER]);

describe("mcpkit call against the official everything server", () => {
  it("lists tools, calls one, gets a prompt and completes an argument", async () => {
    const tools = await official("tools");
    expect(tools.code).toBe(0);
    expect(tools.stdout).toContain("get-sum(a: number, b: number)");
    expect(tools.stdout).toContain('get-annotated-message(messageType: "error" | "success" | "debug"');
    // Without a terminal mcpkit declares no elicitation, and this server offers the tool only to clients that do.
    expect(tools.stdout).not.toContain("trigger-elicitation-request");

    expect(await official("call", "get-sum", "a=1", "b=2")).toMatchObject({
      code: 0,
      stdout: "The sum of 1 and 2 is 3.\n",
    });
    const prompt = await official("--json", "prompt", "args-prompt", "city=Paris");
    expect(JSON.stringify(JSON.parse(prompt.stdout).messages)).toContain("Paris");
    const values = await official("complete", "prompt", "completable-prompt", "department=E");
    expect(values).toMatchObject({ code: 0, stdout: "Engineering\n" });
  });

  it("draws a progress bar on the terminal for trigger-long-running-operation", async () => {
    const terminal = atTerminal("call", "trigger-long-running-operation", "duration=1", "steps=4");
    const { code, stdout } = await terminal.result();
    expect(code).toBe(0);
    expect(stdout).toBe("Long running operation completed. Duration: 1 seconds, Steps: 4.\n");
    for (const step of ["25%", "50%", "75%", "100%"]) expect(terminal.text).toContain(step);
    expect(terminal.text).toContain("█".repeat(12));
  });

  it("answers elicitation/create at the terminal, field by field, re-asking for an invalid email", async () => {
    const terminal = atTerminal("call", "trigger-elicitation-request");
    await terminal.expect("Please provide inputs for the following fields:");
    await terminal.expect("Answer it?");
    terminal.type(KEY.enter);
    await terminal.expect("Your full, legal name");
    terminal.type("Ada Lovelace", KEY.enter);
    await terminal.expect("Agree to the terms and conditions"); // optional boolean: yes / no / (skip)
    terminal.type(KEY.enter);
    await terminal.expect("Favorite first line of a story"); // keeps its default
    terminal.type(KEY.enter);
    await terminal.expect("Your email address");
    terminal.type("not-an-email", KEY.enter);
    await terminal.expect("An email address, like name@example.com");
    terminal.type("\b".repeat(12), "ada@example.com", KEY.enter);
    await terminal.expect("Portfolio / personal website");
    terminal.type(KEY.enter); // optional: left out
    await terminal.expect("Your date of birth");
    terminal.type("1815-12-10", KEY.enter);
    await terminal.expect("Your favorite integer");
    terminal.type(KEY.enter);
    await terminal.expect("Favorite number");
    terminal.type(KEY.enter);
    await terminal.expect("Choose your favorite friend");
    terminal.type(KEY.down, KEY.enter); // Monica is the default; one down is Rachel
    await terminal.expect("Choose your favorite instruments");
    terminal.type(KEY.down, KEY.space, KEY.enter); // Guitar is checked by default; add Piano
    await terminal.expect("Choose your favorite hero");
    terminal.type(KEY.enter);
    await terminal.expect("Choose your favorite types of fish");
    terminal.type(KEY.enter);
    await terminal.expect("Choose your favorite type of pet");
    terminal.type(KEY.down, KEY.enter);
    const { code, stdout } = await terminal.result();
    expect(code).toBe(0);
    expect(stdout).toContain("✅ User provided the requested information!");
    const raw = JSON.parse(stdout.slice(stdout.indexOf("Raw result: ") + "Raw result: ".length));
    expect(raw).toEqual({
      action: "accept",
      content: {
        name: "Ada Lovelace",
        check: true,
        firstLine: "It was a dark and stormy night.",
        email: "ada@example.com",
        birthdate: "1815-12-10",
        integer: 42,
        number: 3.14,
        untitledSingleSelectEnum: "Rachel",
        untitledMultipleSelectEnum: ["Guitar", "Piano"],
        titledSingleSelectEnum: "hero-1",
        titledMultipleSelectEnum: ["fish-1"],
        legacyTitledEnum: "pet-2",
      },
    });
  });

  it("answers sampling/createMessage with what the person types", async () => {
    const terminal = atTerminal("call", "trigger-sampling-request", "prompt=What is the capital of France?");
    await terminal.expect("The server asks your model for a reply (sampling):");
    await terminal.expect("What is the capital of France?");
    await terminal.expect("Reply as the model?");
    terminal.type(KEY.enter);
    await terminal.expect("Reply:");
    terminal.type("Paris", KEY.enter);
    const { code, stdout } = await terminal.result();
    expect(code).toBe(0);
    expect(stdout).toContain('"text": "Paris"');
  });

  it("declines sampling: the server gets error -1 and its tool fails (exit 1)", async () => {
    const terminal = atTerminal("call", "trigger-sampling-request", "prompt=Tell me a secret");
    await terminal.expect("Reply as the model?");
    terminal.type(KEY.down, KEY.enter);
    const { code, stdout } = await terminal.result();
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(terminal.text).toContain("The tool reported an error:");
    expect(terminal.text).toContain("User rejected sampling request");
  });
});
