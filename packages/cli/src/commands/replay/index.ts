import { Command } from "commander";
import { COMMAND_SUMMARIES } from "../summaries.js";
import { USAGE_EXIT } from "../usage-error.js";
import type { ReplayCommandOptions } from "./run.js";

/** A repeatable option. */
const collect = (value: string, previous: string[] = []) => [...previous, value];

const HELP = `
Sends the recording's client messages again, in order, answers the server's requests
(sampling, elicitation, roots) from the recording, and compares what the server sends
with what it sent then. Ignored by default: ids, session and task ids, request state,
_meta, and values that are both ISO 8601 timestamps. --ignore takes a JSON Pointer into a
message, * standing for any array item: --ignore /result/content/*/text

Exit codes:
  0    the server answered as recorded
  1    something differs (each difference is printed), or the server could not be reached
  2    usage error: bad command line, a recording that cannot be read

Examples:
  $ mcpkit replay session.jsonl -- node dist/server.js
  $ mcpkit replay session.jsonl http://127.0.0.1:3000/mcp --ignore /result/structuredContent/elapsed
`;

export function replayCommand(): Command {
  return new Command("replay")
    .description(COMMAND_SUMMARIES.replay.description)
    .usage("[options] RECORDING URL|NAME\n       mcpkit replay [options] RECORDING -- COMMAND [ARGS…]")
    .argument("<recording>", "the recording (mcpkit record --out writes them)")
    .argument(
      "[server...]",
      "the server: a URL, a name from your MCP configuration, or after -- the command that starts it",
    )
    .option("--ignore <pointer>", "a JSON Pointer into messages not to compare; * for any item (repeatable)", collect)
    .option("-H, --header <header>", 'an HTTP header for every request, "Name: value" (repeatable)', collect)
    .option("-e, --env <KEY[=VALUE]>", "a variable for a stdio server; KEY alone passes ours on (repeatable)", collect)
    .option("--config <file>", "read server NAMEs from this file only")
    .option("--timeout <duration>", "how long to wait for each message the recording expects (default 10s)")
    .option("--json", "print the differences as JSON")
    .option("--server-stderr", "show a stdio server's stderr")
    .addHelpText("after", HELP)
    .showHelpAfterError("(mcpkit replay --help shows the usage)")
    .exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : USAGE_EXIT))
    .action(async (recording: string, words: string[], options: ReplayCommandOptions) => {
      const [{ runReplay }, { exitWhenWritten }] = await Promise.all([
        import("./run.js"),
        import("../exit-when-written.js"),
      ]);
      await exitWhenWritten(await runReplay(recording, words, process.argv, options));
    });
}
