import type { Command } from "commander";
import { collect, serverCommand } from "../server-command.js";
import type { LintCommandOptions } from "./run.js";

const HELP = `
Reads the server's lists as sent (what a strict client would drop, lint must see) and
reports each problem with its rule, its severity, its target (tool:NAME, prompt:NAME,
resource:URI, template:URI_TEMPLATE or server) and how to fix it. Errors break a client or
the spec; warnings make clients, or the models behind them, work worse. docs/doctor.md
describes every rule; a server's own tests run the same rules with lint(server) from
mcpkit/testing.

Examples:
  $ mcpkit lint http://127.0.0.1:3000/mcp
  $ mcpkit lint --call 'add={"a":1,"b":2}' -- node dist/main.js
  $ mcpkit lint --json --max-list-bytes 50000 my-server

Exit codes:
  0    no problem of severity error (warnings aside)
  1    a problem of severity error, or the server could not be reached (mcpkit doctor says why)
  2    usage error
`;

/** `mcpkit lint`: the command's shape; the rules and the client are loaded when it runs. */
export function lintCommand(): Command {
  return serverCommand("lint", HELP)
    .option("--json", 'print { "problems": [{ "rule", "severity", "target", "message", "fix"? }] }')
    .option("--call <name=json>", "call this tool with these arguments and check its result (repeatable)", collect)
    .option("--max-list-bytes <bytes>", "warn when tools/list is larger than this (default 100000)")
    .option("--timeout <duration>", "the limit of each request (default 10s; 90 is seconds, or 500ms, 2m; 0: none)")
    .option(
      "-H, --header <header>",
      'an HTTP header for every request to the server, "Name: value" (repeatable)',
      collect,
    )
    .option("-e, --env <KEY[=VALUE]>", "a variable for a stdio server; KEY alone passes ours on (repeatable)", collect)
    .option("--config <file>", "read the named server from this file only (default: the files mcpkit servers reads)")
    .action(async (words: string[], options: LintCommandOptions) => {
      const [{ runLint }, { exitAfterOutput }] = await Promise.all([
        import("./run.js"),
        import("../exit-after-output.js"),
      ]);
      await exitAfterOutput(await runLint(words, process.argv, options));
    });
}
