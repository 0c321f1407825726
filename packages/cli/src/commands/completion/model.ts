import type { Command } from "commander";
import { SERVER_NAMES } from "../../built-in/catalog.js";
import { INSTALL_CLIENTS } from "../../config/install-target.js";

/** What a shell completes for mcpkit: its commands, their options, and what their operands are. */
export interface CompletionModel {
  commands: CompletedCommand[];
}

export interface CompletedCommand {
  name: string;
  description: string;
  options: CompletedOption[];
  /** Fixed words an operand may be (server names, clients, shells). */
  words: string[];
  /** Server names from configuration files (mcpkit servers --names), looked up as the user types. */
  named: boolean;
  /** Files: a module, a command. */
  files: boolean;
}

export interface CompletedOption {
  /** -p, --port */
  flags: string[];
  description: string;
  takesValue: boolean;
  choices: string[];
}

/** How each command's operands complete (a command not listed: files). */
const OPERANDS: Record<string, Pick<CompletedCommand, "words" | "named" | "files">> = {
  serve: { words: SERVER_NAMES, named: false, files: true },
  bundle: { words: SERVER_NAMES, named: false, files: true },
  call: { words: [], named: true, files: true },
  inspect: { words: [], named: true, files: true },
  install: { words: [...INSTALL_CLIENTS], named: false, files: true },
  completion: { words: ["bash", "zsh", "fish"], named: false, files: false },
  servers: { words: [], named: false, files: false },
};

/** Reads the model from the program's commands (all loaded: main.ts loads every one for completion). */
export function completionModel(program: Command): CompletionModel {
  return {
    commands: program.commands
      .filter((command) => !(command as Command & { _hidden?: boolean })._hidden)
      .map((command) => ({
        name: command.name(),
        description: command.description(),
        options: command.options
          .filter((option) => !option.hidden)
          .map((option) => ({
            flags: [option.short, option.long].filter((flag): flag is string => flag !== undefined),
            description: option.description,
            takesValue: option.required || option.optional,
            choices: option.argChoices ?? [],
          })),
        ...(OPERANDS[command.name()] ?? { words: [], named: false, files: true }),
      })),
  };
}
