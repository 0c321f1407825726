import type { Command } from "commander";
import { collect, serverCommand } from "../server-command.js";
import type { DoctorCommandOptions } from "./run.js";

const HELP = `
Reaches the server as a client would, step by step, and says what each step found: for a
stdio server, the command, the process, its stdout and stderr; for a URL, the connection,
the endpoint (or which of /mcp and /sse answers instead), the transport and the
authorization discovery a client follows (no sign-in is started); then the revision, the
time to the first answer and each list. A failed step comes with its cause and its fix.
docs/doctor.md describes every check.

Examples:
  $ mcpkit doctor http://127.0.0.1:3000/mcp
  $ mcpkit doctor -- node dist/main.js
  $ mcpkit doctor my-server                (a name from .mcp.json, Claude Desktop's or Cursor's configuration)
  $ mcpkit doctor --json --timeout 30s -H 'Authorization: Bearer TOKEN' https://example.com/mcp

Exit codes:
  0    the server works (warnings aside)
  1    a check of severity error failed
  2    usage error
`;

/** `mcpkit doctor`: the command's shape; the doctor itself is loaded when it runs. */
export function doctorCommand(): Command {
  return serverCommand("doctor", HELP)
    .option("--json", 'print one JSON report: { "ok", "checks": [{ "id", "ok", "severity", "message", "fix"? }] }')
    .option("--timeout <duration>", "the limit of each step (default 10s; 90 is seconds, or 500ms, 2m; 0: none)")
    .option(
      "-H, --header <header>",
      'an HTTP header for every request to the server, "Name: value" (repeatable)',
      collect,
    )
    .option("-e, --env <KEY[=VALUE]>", "a variable for a stdio server; KEY alone passes ours on (repeatable)", collect)
    .option("--config <file>", "read the named server from this file only (default: the files mcpkit servers reads)")
    .action(async (words: string[], options: DoctorCommandOptions) => {
      const [{ runDoctor }, { exitAfterOutput }] = await Promise.all([
        import("./run.js"),
        import("../exit-after-output.js"),
      ]);
      await exitAfterOutput(await runDoctor(words, process.argv, options));
    });
}
