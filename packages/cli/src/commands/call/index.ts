import { Command, Option } from "commander";
import { LOG_LEVELS } from "mcpkit";
import { COMMAND_SUMMARIES } from "../summaries.js";
import { EXIT } from "./exit-codes.js";
import { countDashed } from "./invocation.js";
import type { CallCommandOptions } from "./run.js";

/** A repeatable option (no default, so help shows none). */
const collect = (value: string, previous: string[] = []) => [...previous, value];

const HELP = `
Actions (default: info):
  info                                 the server's name, revision, capabilities, instructions
  tools | resources | templates | prompts
                                       list them
  TOOL [key=value…] ['{…}']            call a tool; values are read by the tool's input schema
  call TOOL [key=value…] ['{…}']       the same, for a tool named like an action (or after the command)
  read URI                             read a resource (binary goes raw to a file or pipe)
  prompt NAME [key=value…]             get a prompt
  complete prompt NAME ARG=PARTIAL [OTHER=VALUE…]
  complete resource TEMPLATE ARG=PARTIAL [OTHER=VALUE…]
                                       completions for an argument
  watch [URI…]                         print notifications as they arrive, until Ctrl+C
  task ID [wait|status|cancel]         come back to a task: wait for its result (default),
                                       show its state, or cancel it

Tasks: a tool the server may run as a task shows each state on stderr as it goes; with
--detach the task id is printed and mcpkit call returns at once. Ctrl+C leaves a task
running on the server; \`task ID\` re-attaches.

Examples:
  $ mcpkit call http://127.0.0.1:3000/mcp tools
  $ mcpkit call http://127.0.0.1:3000/mcp add a=1 b=2
  $ mcpkit call echo message=hi -- npx -y @modelcontextprotocol/server-everything stdio
  $ mcpkit call -- npx -y @modelcontextprotocol/server-everything stdio call echo message=hi
  $ mcpkit call --detach http://127.0.0.1:3000/mcp slow_compute seconds=60
  $ mcpkit call http://127.0.0.1:3000/mcp task 786512e2-9e0d-44bd-8f29-789f320fe840
  $ mcpkit call --json get-sum '{"a": 1, "b": 2}' -- npx -y @modelcontextprotocol/server-everything stdio

Exit codes:
  ${EXIT.ok}    success
  ${EXIT.toolError}    the tool reported an error (isError: true)
  ${EXIT.usage}    usage error: bad command line, unknown tool or prompt, an argument not declared or not of its type
  ${EXIT.protocol}    the server answered with a JSON-RPC error
  ${EXIT.connection}    the server could not be started or reached, the connection dropped, or a request timed out
  ${EXIT.interrupted}  interrupted (Ctrl+C)
`;

export function callCommand(): Command {
  return (
    new Command("call")
      .description(COMMAND_SUMMARIES.call.description)
      .usage(
        "[options] URL [TOOL [key=value…] | ACTION [ARGS…]]\n       mcpkit call [options] [TOOL [key=value…] | ACTION [ARGS…]] -- COMMAND [ARGS…]",
      )
      .argument(
        "[words...]",
        "the server (a URL, a command after --, or a NAME from .mcp.json and the like), then a tool and its arguments, or an action",
      )
      .option("--config <file>", "read server NAMEs from this file only (mcpkit servers lists where they come from)")
      .option("--json", "print results as JSON, for scripts")
      .option("--save <dir>", "write images, audio and binary resources into this folder (and say where)")
      .option("--detach", "start a tool call as a task and print its id instead of waiting (HTTP servers)")
      .option("-H, --header <header>", 'an HTTP header for every request, "Name: value" (repeatable)', collect)
      .option(
        "-e, --env <KEY[=VALUE]>",
        "a variable for a stdio server; KEY alone passes ours on (repeatable)",
        collect,
      )
      .option("--root <path-or-uri>", "offer a root to the server (repeatable)", collect)
      .option("--protocol <revision>", "speak this protocol revision (default: the newest the server speaks)")
      .option(
        "--timeout <duration>",
        "give up on a request after this long without progress (default 60s; 90 is seconds, or 500ms, 2m; 0 waits forever)",
      )
      .addOption(
        new Option("--log-level <level>", "show the server's log messages from this level up").choices(LOG_LEVELS),
      )
      .option("--no-interactive", "never ask at the terminal (declares neither sampling nor elicitation)")
      .option("--no-browser", "when the server needs a login, print its URL instead of opening the browser")
      .option("--server-stderr", "show a stdio server's stderr (it is otherwise shown only when it fails)")
      .addHelpText("after", HELP)
      .showHelpAfterError("(mcpkit call --help shows the usage)")
      // Commander's own usage errors (an unknown option, a missing value) exit 2 like ours.
      .exitOverride((error) => {
        process.exit(error.exitCode === 0 ? 0 : EXIT.usage);
      })
      .action(async (words: string[], options: CallCommandOptions) => {
        // Loaded when the command runs, not for its help: the client and its transports.
        const [{ runCall }, { flushed }] = await Promise.all([import("./run.js"), import("./output.js")]);
        // main.ts parses process.argv; commander drops the `--`, so its place is read there.
        const code = await runCall(words, countDashed(process.argv), options);
        // Exit explicitly: a fetch keep-alive socket or a prompt's stdin must not keep us running.
        await flushed();
        process.exit(code);
      })
  );
}
