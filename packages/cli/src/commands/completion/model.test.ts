import { Command, Option } from "commander";
import { describe, expect, it } from "vitest";
import { SERVER_NAMES } from "../../built-in/catalog.js";
import { INSTALL_CLIENTS } from "../../config/install-target.js";
import { completionModel } from "./model.js";

// What a shell completes for mcpkit, read from the program's commands: their options
// (hidden ones left out), the values an option takes, and what each command's operands are.

function programWith(...commands: Command[]): Command {
  const program = new Command("mcpkit");
  for (const command of commands) program.addCommand(command);
  return program;
}

describe("the completion model", () => {
  it("lists each command's options with their flags, whether they take a value, and their choices", () => {
    const serve = new Command("serve")
      .description("Run a server")
      .option("-p, --port <port>", "the port")
      .option("--stdio", "over stdio")
      .addOption(new Option("--units <units>", "units").choices(["metric", "imperial"]))
      .addOption(new Option("--secret <x>", "not shown").hideHelp());
    const [model] = completionModel(programWith(serve)).commands;
    expect(model).toMatchObject({ name: "serve", description: "Run a server" });
    expect(model?.options).toEqual([
      { flags: ["-p", "--port"], description: "the port", takesValue: true, choices: [] },
      { flags: ["--stdio"], description: "over stdio", takesValue: false, choices: [] },
      { flags: ["--units"], description: "units", takesValue: true, choices: ["metric", "imperial"] },
    ]);
  });

  it("completes serve's and bundle's operands with the built-in servers, and files", () => {
    const { commands } = completionModel(programWith(new Command("serve"), new Command("bundle")));
    for (const command of commands) expect(command).toMatchObject({ words: SERVER_NAMES, files: true, named: false });
  });

  it("completes call's and inspect's operands with the servers configuration files name", () => {
    const { commands } = completionModel(programWith(new Command("call"), new Command("inspect")));
    for (const command of commands) expect(command).toMatchObject({ words: [], named: true, files: true });
  });

  it("completes install's clients and completion's shells, and leaves hidden commands out", () => {
    const hidden = new Command("internal");
    const program = programWith(new Command("install"), new Command("completion"));
    program.addCommand(hidden, { hidden: true });
    const { commands } = completionModel(program);
    expect(commands.map((c) => c.name)).toEqual(["install", "completion"]);
    expect(commands[0]?.words).toEqual([...INSTALL_CLIENTS]);
    expect(commands[1]).toMatchObject({ words: ["bash", "zsh", "fish"], files: false });
  });
});
