import { Command } from "commander";
import { COMMAND_SUMMARIES } from "../summaries.js";
import { USAGE_EXIT, UsageError } from "../usage-error.js";
import { completionModel } from "./model.js";
import { bashScript, fishScript, zshScript } from "./scripts.js";

const SHELLS = { bash: bashScript, zsh: zshScript, fish: fishScript };

export function completionCommand(): Command {
  return new Command("completion")
    .description(COMMAND_SUMMARIES.completion.description)
    .argument("<shell>", "bash, zsh or fish")
    .addHelpText(
      "after",
      `
Load it:
  bash  source <(mcpkit completion bash)                       in ~/.bashrc
  zsh   source <(mcpkit completion zsh)                        in ~/.zshrc, after compinit
  fish  mcpkit completion fish > ~/.config/fish/completions/mcpkit.fish

It completes commands, options and their values, built-in servers, clients, and the names
of the servers in your configuration files (mcpkit servers --names, asked as you type).
`,
    )
    .exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : USAGE_EXIT))
    .action((shell: string, _options: unknown, command: Command) => {
      const script = SHELLS[shell as keyof typeof SHELLS];
      if (!script) throw new UsageError(`Unknown shell "${shell}": choose bash, zsh or fish`);
      process.stdout.write(script(completionModel(command.parent as Command)));
    });
}
