import { Command } from "commander";
import { USAGE_EXIT, UsageError } from "./commands/usage-error.js";
import { VERSION } from "./version.js";

// Each command is loaded only when it runs, so `mcpkit --version` starts as fast as Node
// does; help and a mistyped command load them all, to describe or suggest them.
const COMMANDS: Record<string, () => Promise<Command>> = {
  serve: async () => (await import("./commands/serve/index.js")).serveCommand(),
  call: async () => (await import("./commands/call/index.js")).callCommand(),
  inspect: async () => (await import("./commands/inspect/index.js")).inspectCommand(),
  servers: async () => (await import("./commands/servers/index.js")).serversCommand(),
  install: async () => (await import("./commands/install/index.js")).installCommand(),
  dev: async () => (await import("./commands/dev/index.js")).devCommand(),
  bundle: async () => (await import("./commands/bundle/index.js")).bundleCommand(),
  completion: async () => (await import("./commands/completion/index.js")).completionCommand(),
};

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
  npm install -g release/mcpkit-cli-${VERSION}.tgz release/mcpkit-${VERSION}.tgz
Start a server project: mcpkit's docs/workflow.md.`,
  )
  .showHelpAfterError()
  // An unknown command is a usage error: exit 2, as every command's own.
  .exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : USAGE_EXIT));

// -V as well as -v: earlier releases printed the version on -V only.
if (process.argv[2] === "-V") process.argv[2] = "-v";
const first = process.argv[2];
// Completion describes every command, so it loads them all, as help does.
const wanted =
  first !== undefined && first in COMMANDS && first !== "completion"
    ? [first]
    : first === "--version" || first === "-v"
      ? []
      : Object.keys(COMMANDS);
try {
  // A command may refuse its command line while it is built (serve: a flag of another server).
  for (const name of wanted) program.addCommand(await (COMMANDS[name] as () => Promise<Command>)());
  await program.parseAsync(process.argv);
} catch (error) {
  process.stderr.write(`mcpkit: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = error instanceof UsageError ? USAGE_EXIT : 1;
}
