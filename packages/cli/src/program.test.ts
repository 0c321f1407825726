import { Command, CommanderError } from "commander";
import { describe, expect, it } from "vitest";
import { COMMAND_SUMMARIES, type CommandName } from "./commands/summaries.js";
import { COMMANDS, program } from "./program.js";
import { VERSION } from "./version.js";

// The `mcpkit` program's own command line: help and a mistyped command are answered from
// the commands' summaries, without loading a command; commander's exit is turned into a
// throw here so that a test sees what a user would.

const NAMES = Object.keys(COMMAND_SUMMARIES) as CommandName[];

/** The program as `mcpkit --help` builds it (no command loaded), its output kept. */
function summarized(): { mcpkit: Command; out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  const mcpkit = program(NAMES.map((name) => new Command(name).description(COMMAND_SUMMARIES[name].description)))
    .exitOverride()
    .configureOutput({ writeOut: (s) => out.push(s), writeErr: (s) => err.push(s) });
  return { mcpkit, out, err };
}

async function parse(mcpkit: Command, ...args: string[]): Promise<CommanderError | undefined> {
  try {
    await mcpkit.parseAsync(["node", "mcpkit", ...args]);
    return undefined;
  } catch (error) {
    if (error instanceof CommanderError) return error;
    throw error;
  }
}

describe("mcpkit's command line", () => {
  it("knows every command the summaries describe, and a loader for each", () => {
    expect(Object.keys(COMMANDS).sort()).toEqual([...NAMES].sort());
  });

  it("lists every command in help with its description", () => {
    // Words only: help wraps its lines to the terminal's width.
    const help = summarized().mcpkit.helpInformation().replace(/\s+/g, " ");
    for (const name of NAMES) expect(help).toContain(COMMAND_SUMMARIES[name].description);
    expect(help).toMatch(/^Usage: mcpkit \[options\] \[command\]/);
    expect(help).toContain("-v, --version");
  });

  it("prints its version and the Node.js it runs on", async () => {
    const { mcpkit, out } = summarized();
    const exit = await parse(mcpkit, "--version");
    expect(exit?.code).toBe("commander.version");
    expect(out.join("")).toBe(`${VERSION} (Node.js ${process.version})\n`);
  });

  it("refuses a mistyped command, naming the one meant", async () => {
    const { mcpkit, err } = summarized();
    const exit = await parse(mcpkit, "serv", "weather");
    expect(exit?.code).toBe("commander.unknownCommand");
    expect(exit?.exitCode).toBe(1);
    expect(err.join("")).toMatch(/unknown command 'serv'[\s\S]*Did you mean serve\?/);
  });

  it("refuses an unknown option of its own", async () => {
    const { mcpkit } = summarized();
    expect((await parse(mcpkit, "--frobnicate"))?.code).toBe("commander.unknownOption");
  });
});
