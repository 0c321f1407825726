import { Command, Option } from "commander";
import { COMMAND_SUMMARIES } from "../summaries.js";
import { USAGE_EXIT } from "../usage-error.js";
import type { TestCommandOptions } from "./run.js";

const HELP = `
A test file (docs/testing.md):
  server: { command: node, args: [dist/server.js] }   # or url: http://…, or a NAME
  tests:
    - name: adds two numbers
      call: add
      arguments: { a: 2, b: 3 }
      expect: { structuredContent: { sum: 5 } }

Without FILES, every **/*.mcptest.yaml under this folder (node_modules and dot folders
left out). A test file names a command to run: run only files you trust.

Exit codes:
  0    every test passed
  1    a test failed (or its server could not be reached)
  2    usage error: bad command line, a test file that cannot be read, no test files

Examples:
  $ mcpkit test
  $ mcpkit test tests/tools.mcptest.yaml --reporter junit --output junit.xml
`;

export function testCommand(): Command {
  return new Command("test")
    .description(COMMAND_SUMMARIES.test.description)
    .argument("[files...]", "test files (default: **/*.mcptest.yaml)")
    .addOption(new Option("--reporter <name>", "how to report: text, junit or json").choices(["text", "junit", "json"]))
    .option("--output <file>", "write the report to this file instead of stdout")
    .option("--config <file>", "read server NAMEs from this file only (mcpkit servers lists where they come from)")
    .option("--server-stderr", "show the servers' stderr (it is otherwise shown only when one fails to start)")
    .addHelpText("after", HELP)
    .showHelpAfterError("(mcpkit test --help shows the usage)")
    .exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : USAGE_EXIT))
    .action(async (files: string[], options: TestCommandOptions) => {
      const [{ runTestCommand }, { exitWhenWritten }] = await Promise.all([
        import("./run.js"),
        import("../exit-when-written.js"),
      ]);
      await exitWhenWritten(await runTestCommand(files, options));
    });
}
