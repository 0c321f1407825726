import { Command } from "commander";
import { callCommand } from "./commands/call/index.js";
import { serveCommand } from "./commands/serve.js";
import { VERSION } from "./version.js";

const program = new Command("mcpkit")
  .description("Serve the built-in MCP servers, or drive any MCP server from the terminal")
  .version(VERSION)
  .showHelpAfterError();

program.addCommand(serveCommand());
program.addCommand(callCommand());

program.parseAsync(process.argv).catch((error: unknown) => {
  process.stderr.write(`mcpkit: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
