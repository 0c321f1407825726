import type { Command } from "commander";
import { collect, serverCommand } from "../server-command.js";
import type { RecordCommandOptions } from "./run.js";

const HELP = `
Over stdio, put mcpkit record where the client starts the server: it starts the command,
forwards every byte both ways unchanged, writes each message to --out, and exits when its
stdin closes. Over HTTP (--port, or a URL), it listens on 127.0.0.1 and forwards to the
URL; each session goes to its own file (rec.jsonl, rec-2.jsonl…) until Ctrl+C.

A recording holds what the session carried: it is written readable by you only, and
credentials are left out (docs/testing.md): the values of keys that name one (token,
secret, password, apiKey, authorization, cookie…), bearer tokens and JSON Web Tokens in
any text, the values of -e and -H and of a named server's env and headers, and --secret.

Examples:
  $ mcpkit record --out session.jsonl -- node dist/server.js
      (in Claude Desktop's configuration: "command": "mcpkit",
       "args": ["record", "--out", "/tmp/session.jsonl", "--", "node", "dist/server.js"])
  $ mcpkit record --out session.jsonl --port 3100 http://127.0.0.1:3000/mcp
  $ mcpkit replay session.jsonl -- node dist/server.js
`;

export function recordCommand(): Command {
  return serverCommand("record", HELP, {
    usage: "[options] --out FILE -- COMMAND [ARGS…]\n       mcpkit record [options] --out FILE --port PORT URL|NAME",
    argument: "the server: after -- the command that starts it, a URL, or a name from your MCP configuration",
  })
    .requiredOption("--out <file>", "where the recording goes (over HTTP, the first session's; the next are numbered)")
    .option("--port <port>", "listen on this port of 127.0.0.1 and relay HTTP to the URL (default: a free one)")
    .option("--secret <value>", "leave this value out of the recording wherever it appears (repeatable)", collect)
    .option("-H, --header <header>", 'an HTTP header for every request relayed, "Name: value" (repeatable)', collect)
    .option("-e, --env <KEY[=VALUE]>", "a variable for a stdio server; KEY alone passes ours on (repeatable)", collect)
    .option("--allow-origin <origin>", "a web page's origin that may call the HTTP relay (repeatable)", collect)
    .option("--config <file>", "read server NAMEs from this file only")
    .action(async (words: string[], options: RecordCommandOptions) => {
      const [{ runRecord }, { exitWhenWritten }] = await Promise.all([
        import("./run.js"),
        import("../exit-when-written.js"),
      ]);
      await exitWhenWritten(await runRecord(words, process.argv, options));
    });
}
