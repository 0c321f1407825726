import type { Command } from "commander";
import { collect, serverCommand } from "../server-command.js";
import type { InspectCommandOptions } from "./run.js";

const HELP = `
The inspector listens on 127.0.0.1 only, and only the page that opens the printed URL
(it carries a one-time token) can use it. A stdio server is started from this command
line only; the page may start the programs --allow-spawn names, and nothing else, never
with variables of its own.

Examples:
  $ mcpkit inspect http://127.0.0.1:3000/mcp
  $ mcpkit inspect --open --protocol legacy http://127.0.0.1:3000/mcp
  $ mcpkit inspect -H 'Authorization: Bearer TOKEN' https://example.com/mcp
  $ mcpkit inspect -- npx -y @modelcontextprotocol/server-everything stdio
  $ mcpkit inspect --allow-spawn node,npx -- node ./server.js
  $ mcpkit inspect my-server                (a name from .mcp.json, Claude Desktop's or Cursor's configuration)
  $ mcpkit inspect --config ./mcp.json my-server
`;

/**
 * `mcpkit inspect`: only the command's shape lives here; the inspector itself (server,
 * page, client) is imported when the command runs, so no other command loads any of it.
 */
export function inspectCommand(): Command {
  return serverCommand("inspect", HELP)
    .option("--port <port>", "listen on this port of 127.0.0.1 (default: a free one)")
    .option("--open", "open the inspector in the browser")
    .option(
      "--protocol <era>",
      "auto (the newest the server speaks), legacy (the initialize handshake), modern (2026-07-28), or a revision",
      "auto",
    )
    .option("-H, --header <header>", 'an HTTP header for every request, "Name: value" (repeatable)', collect)
    .option("-e, --env <KEY[=VALUE]>", "a variable for a stdio server; KEY alone passes ours on (repeatable)", collect)
    .option(
      "--root <path-or-uri>",
      "offer this root to the server instead of the folder it starts in (repeatable; the page edits them)",
      collect,
    )
    .option("--config <file>", "read the named server from this file only (default: the files mcpkit servers reads)")
    .option(
      "--timeout <duration>",
      "give up on a request after this long (default 300s; 90 is seconds, or 2m; 0 waits forever)",
    )
    .option(
      "--ping-interval <duration>",
      "while a page is open, ping an HTTP server this often to notice it went away (default 5s; 0: never)",
    )
    .option(
      "--allow-spawn <programs>",
      "let the page start these programs as stdio servers, comma-separated, named exactly (node,npx)",
      collect,
    )
    .action(async (words: string[], options: InspectCommandOptions) => {
      const { runInspect } = await import("./run.js");
      await runInspect(words, process.argv, options);
    });
}
