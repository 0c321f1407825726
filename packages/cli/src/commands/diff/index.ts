import { Command } from "commander";
import { COMMAND_SUMMARIES } from "../summaries.js";
import { USAGE_EXIT } from "../usage-error.js";

const HELP = `
OLD and NEW are snapshots (mcpkit snapshot --out FILE). Breaking changes are those that
fail a client written against OLD: a tool, prompt, resource or template removed, a new
required input, an input narrowed, an output property removed, retyped or widened. The
kinds are listed in docs/testing.md.

Exit codes:
  0    nothing breaks (compatible changes, or none)
  1    something breaks
  2    usage error: a file that cannot be read or is not a snapshot

Examples:
  $ mcpkit diff release/mcp-snapshot.json mcp-snapshot.json
  $ mcpkit diff --json old.json new.json
`;

export function diffCommand(): Command {
  return new Command("diff")
    .description(COMMAND_SUMMARIES.diff.description)
    .argument("<old>", "the snapshot clients were written against (e.g. the last release's)")
    .argument("<new>", "the snapshot of the server to publish")
    .option("--json", 'print { "breaking": [{ kind, target, message }], "compatible": [...] }')
    .addHelpText("after", HELP)
    .showHelpAfterError("(mcpkit diff --help shows the usage)")
    .exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : USAGE_EXIT))
    .action(async (old: string, now: string, options: { json?: boolean }) => {
      const [{ runDiff }, { exitWhenWritten }] = await Promise.all([
        import("./run.js"),
        import("../exit-when-written.js"),
      ]);
      await exitWhenWritten(runDiff(old, now, options));
    });
}
