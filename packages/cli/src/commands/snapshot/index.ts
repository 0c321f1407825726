import type { Command } from "commander";
import { collect, serverCommand } from "../server-command.js";
import type { SnapshotCommandOptions } from "./run.js";

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
  return serverCommand("snapshot", HELP)
    .option("--out <file>", "write the snapshot to this file (default: stdout)")
    .option("--protocol <revision>", "speak this protocol revision (default: the newest the server speaks)")
    .option("-H, --header <header>", 'an HTTP header for every request, "Name: value" (repeatable)', collect)
    .option("-e, --env <KEY[=VALUE]>", "a variable for a stdio server; KEY alone passes ours on (repeatable)", collect)
    .option("--config <file>", "read server NAMEs from this file only")
    .option("--timeout <duration>", "give up on a request after this long (default 60s; 90 is seconds, or 2m)")
    .option("--server-stderr", "show a stdio server's stderr (it is otherwise shown only when it fails)")
    .action(async (words: string[], options: SnapshotCommandOptions) => {
      const [{ runSnapshot }, { exitWhenWritten }] = await Promise.all([
        import("./run.js"),
        import("../exit-when-written.js"),
      ]);
      await exitWhenWritten(await runSnapshot(words, process.argv, options));
    });
}
