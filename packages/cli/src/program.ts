import { Command, Help } from "commander";
import { COMMAND_SUMMARIES, type CommandName } from "./commands/summaries.js";
import { USAGE_EXIT, UsageError } from "./commands/usage-error.js";
import { VERSION } from "./version.js";

/** Each command, loaded only when it runs (or when its own help is asked for). */
export const COMMANDS: Record<CommandName, () => Promise<Command>> = {
  serve: async () => (await import("./commands/serve/index.js")).serveCommand(),
  call: async () => (await import("./commands/call/index.js")).callCommand(),
  inspect: async () => (await import("./commands/inspect/index.js")).inspectCommand(),
  doctor: async () => (await import("./commands/doctor/index.js")).doctorCommand(),
  lint: async () => (await import("./commands/lint/index.js")).lintCommand(),
  servers: async () => (await import("./commands/servers/index.js")).serversCommand(),
  gateway: async () => (await import("./commands/gateway/index.js")).gatewayCommand(),
  install: async () => (await import("./commands/install/index.js")).installCommand(),
  dev: async () => (await import("./commands/dev/index.js")).devCommand(),
  bundle: async () => (await import("./commands/bundle/index.js")).bundleCommand(),
  test: async () => (await import("./commands/test/index.js")).testCommand(),
  record: async () => (await import("./commands/record/index.js")).recordCommand(),
  replay: async () => (await import("./commands/replay/index.js")).replayCommand(),
  snapshot: async () => (await import("./commands/snapshot/index.js")).snapshotCommand(),
  diff: async () => (await import("./commands/diff/index.js")).diffCommand(),
  completion: async () => (await import("./commands/completion/index.js")).completionCommand(),
};

const isCommand = (word: string | undefined): word is CommandName =>
  word !== undefined && Object.hasOwn(COMMANDS, word);

/**
 * A command as `mcpkit --help` lists it, without loading it: its name and description,
 * and the term help prints for it (see `program`). Enough for help and for suggesting a
 * mistyped command; never run (a command named on the command line is the real one).
 */
function summary(name: CommandName): Command {
  const command = new Command(name).description(COMMAND_SUMMARIES[name].description);
  summaries.add(command);
  return command;
}
const summaries = new WeakSet<Command>();

/** The `mcpkit` program with these commands (each loaded, or a summary of one). */
export function program(commands: Command[]): Command {
  const program = new Command("mcpkit")
    .description("Serve the built-in MCP servers, or drive any MCP server from the terminal")
    // The Node.js too: which one runs the command is what a bug report most often needs.
    .version(`${VERSION} (Node.js ${process.version})`, "-v, --version", "print the version (also -V)")
    .addHelpText(
      "after",
      `
Install: not on the npm registry yet, so \`npm install -g @mcpkit/cli\` and \`npx @mcpkit/cli\`
answer E404 until it is published. What works today, from a clone of mcpkit:
  npm install && npm run release       # release/*.tgz, with SHA256SUMS
  npm install -g release/mcpkit-cli-${VERSION}.tgz release/mcpkit-servers-${VERSION}.tgz release/mcpkit-${VERSION}.tgz
Start a server project: mcpkit's docs/workflow.md.`,
    )
    .showHelpAfterError()
    // An unknown command is a usage error: exit 2, as every command's own.
    .exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : USAGE_EXIT))
    // A summary's term is written down (commands/summaries.ts); a loaded command's is its own.
    .configureHelp({
      subcommandTerm(this: Help, command: Command) {
        return summaries.has(command)
          ? COMMAND_SUMMARIES[command.name() as CommandName].term
          : Help.prototype.subcommandTerm.call(this, command);
      },
    });
  for (const command of commands) program.addCommand(command);
  return program;
}

/**
 * Parses the command line and runs what it names. Only the command that runs is loaded
 * (or the one whose help `mcpkit help NAME` asks for); completion describes every command,
 * so it loads them all; anything else (help, a mistyped command) needs only their summaries.
 */
export async function run(argv: string[]): Promise<void> {
  const [first, second] = [argv[2], argv[3]];
  const wanted: CommandName[] =
    first === "completion"
      ? (Object.keys(COMMANDS) as CommandName[])
      : isCommand(first)
        ? [first]
        : first === "help" && isCommand(second)
          ? [second]
          : [];
  try {
    // A command may refuse its command line while it is built (serve: a flag of another server).
    const loaded = new Map<string, Command>();
    for (const name of wanted) loaded.set(name, await COMMANDS[name]());
    const names = Object.keys(COMMANDS) as CommandName[];
    await program(names.map((name) => loaded.get(name) ?? summary(name))).parseAsync(argv);
  } catch (error) {
    process.stderr.write(`mcpkit: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = error instanceof UsageError ? USAGE_EXIT : 1;
  }
}
