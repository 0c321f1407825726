import { Command } from "commander";
import { COMMAND_SUMMARIES } from "../summaries.js";
import { USAGE_EXIT } from "../usage-error.js";
import type { SnapshotCommandOptions } from "./run.js";

/** A repeatable option. */
const collect = (value: string, previous: string[] = []) => [...previous, value];

const HELP = `
The snapshot holds what a client relies on: server info, capabilities, tools, prompts,
resources and templates with their schemas; keys and lists sorted, nothing that changes
by itself, so two snapshots of an unchanged server are equal. Compare two with mcpkit diff.

Examples:
  $ mcpkit snapshot --out mcp-snapshot.json -- node dist/server.js
  $ mcpkit snapshot --protocol 2025-11-25 http://127.0.0.1:3000/mcp
  $ mcpkit snapshot my-server                (a name from .mcp.json and the like)
`;

export function snapshotCommand(): Command {
  return new Command("snapshot")
    .description(COMMAND_SUMMARIES.snapshot.description)
    .usage("[options] URL|NAME\n       mcpkit snapshot [options] -- COMMAND [ARGS…]")
    .argument(
      "[server...]",
      "the server: a URL, a name from your MCP configuration, or after -- the command that starts it",
    )
    .option("--out <file>", "write the snapshot to this file (default: stdout)")
    .option("--protocol <revision>", "speak this protocol revision (default: the newest the server speaks)")
    .option("-H, --header <header>", 'an HTTP header for every request, "Name: value" (repeatable)', collect)
    .option("-e, --env <KEY[=VALUE]>", "a variable for a stdio server; KEY alone passes ours on (repeatable)", collect)
    .option("--config <file>", "read server NAMEs from this file only")
    .option("--timeout <duration>", "give up on a request after this long (default 60s; 90 is seconds, or 2m)")
    .option("--server-stderr", "show a stdio server's stderr (it is otherwise shown only when it fails)")
    .addHelpText("after", HELP)
    .showHelpAfterError("(mcpkit snapshot --help shows the usage)")
    .exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : USAGE_EXIT))
    .action(async (words: string[], options: SnapshotCommandOptions) => {
      const [{ runSnapshot }, { exitWhenWritten }] = await Promise.all([
        import("./run.js"),
        import("../exit-when-written.js"),
      ]);
      await exitWhenWritten(await runSnapshot(words, process.argv, options));
    });
}
