import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { basename, dirname } from "node:path";
import { Command, Option } from "commander";
import {
  CLIENTS,
  type ClientName,
  clientEntry,
  DEFAULT_SCOPE,
  hasComments,
  herePlace,
  installFile,
  mergeEntry,
  type Scope,
} from "../../config/index.js";
import { mcpkitCommand } from "../../self.js";
import { unifiedDiff } from "../../servers/workspace/files/diff.js";
import { COMMAND_SUMMARIES } from "../summaries.js";
import { USAGE_EXIT, UsageError } from "../usage-error.js";
import { describeServer } from "./server-words.js";

interface InstallOptions {
  scope?: Scope;
  dryRun?: boolean;
  env?: string[];
  header?: string[];
  npx?: boolean;
  force?: boolean;
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

const HELP = `
The server, after --:
  URL                        a server over Streamable HTTP (Claude Desktop reaches it
                             through mcpkit serve proxy)
  SERVER [FLAGS…]            a built-in server: everything, workspace, weather, github, proxy
  ./server.js|.ts [FLAGS…]   your module, served by mcpkit serve (a default-exported server)
  COMMAND [ARGS…]            any command that speaks MCP on stdin and stdout

Files written (--scope; the default is marked *):
  claude-desktop  user*     claude_desktop_config.json in Claude's settings folder
  claude-code     project*  .mcp.json here           user: ~/.claude.json
  cursor          user*     ~/.cursor/mcp.json       project: .cursor/mcp.json here
  vscode          project*  .vscode/mcp.json here    user: VS Code's user mcp.json

The file as it was is kept beside it as FILE.bak. Paths among the server's words are made
absolute, since clients start servers from their own folder; mcpkit itself is written as
this Node and this installation's script (--npx: npx -y @mcpkit/cli instead).

Examples:
  $ mcpkit install claude-desktop -- workspace --root ~/notes
  $ mcpkit install claude-desktop my-server -- node dist/main.js
  $ mcpkit install claude-code -- ./src/server.ts
  $ mcpkit install vscode docs -H "Authorization: Bearer \${env:DOCS_TOKEN}" -- https://example.com/mcp
  $ mcpkit install cursor --dry-run -- everything
`;

export function installCommand(): Command {
  return new Command("install")
    .description(COMMAND_SUMMARIES.install.description)
    .usage("<client> [name] [options] -- <server…>")
    .argument("<client>", `the client: ${CLIENTS.join(", ")}`)
    .argument("[words...]", "the entry's name (default: the server's or the package's), then -- and the server")
    .addOption(
      new Option("--scope <scope>", "this project's file or yours (default: per client)").choices(["project", "user"]),
    )
    .option("--dry-run", "print the change to the file and write nothing")
    .option("-e, --env <KEY=VALUE>", "a variable for a server started by a command (repeatable)", collect)
    .option("-H, --header <header>", 'an HTTP header for a server at a URL, "Name: value" (repeatable)', collect)
    .option("--npx", "start mcpkit with npx -y @mcpkit/cli instead of this installation's path")
    .option("--force", "write a file whose comments would be lost (the .bak keeps them)")
    .addHelpText("after", HELP)
    .exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : USAGE_EXIT))
    .action((client: string, words: string[], options: InstallOptions) => {
      if (!(CLIENTS as readonly string[]).includes(client))
        throw new UsageError(`Unknown client "${client}": choose one of ${CLIENTS.join(", ")}`);
      install(client as ClientName, words, options);
    });
}

function install(client: ClientName, words: string[], options: InstallOptions): void {
  // commander drops the `--`: the words after it are the server.
  const dash = process.argv.indexOf("--");
  const serverWords = dash === -1 ? [] : process.argv.slice(dash + 1);
  const named = words.slice(0, words.length - serverWords.length);
  if (dash === -1)
    throw new UsageError("Give the server after --, for example: mcpkit install claude-desktop -- workspace");
  if (named.length > 1) throw new UsageError(`One name before --, please (got ${named.join(" ")})`);
  const place = herePlace();
  const described = describeServer(serverWords, {
    cwd: place.cwd,
    env: pairs(options.env ?? [], "=", "--env takes KEY=VALUE"),
    headers: pairs(options.header ?? [], ":", '--header takes "Name: value"'),
    mcpkit: mcpkitCommand(options.npx === true),
  });
  const name = named[0] ?? described.name;
  if (name === undefined)
    throw new UsageError(`Name the server: mcpkit install ${client} NAME -- ${serverWords.join(" ")}`);
  const scope = options.scope ?? DEFAULT_SCOPE[client];
  let file: ReturnType<typeof installFile>;
  try {
    file = installFile(client, scope, place);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const before = existsSync(file.path) ? readFileSync(file.path, "utf8") : undefined;
  let merged: ReturnType<typeof mergeEntry>;
  try {
    merged = mergeEntry(
      before,
      file.key,
      name,
      clientEntry(client, described.spec, mcpkitCommand(options.npx === true)),
    );
  } catch (error) {
    throw new Error(`Cannot add "${name}" to ${file.path}: ${(error as Error).message}`);
  }
  if (merged.change === "unchanged") {
    process.stdout.write(`${file.path} already has "${name}" as given: nothing to change.\n`);
    return;
  }
  if (options.dryRun) {
    process.stdout.write(`Would ${merged.change === "added" ? "add" : "replace"} "${name}" in ${file.path}:\n`);
    process.stdout.write(unifiedDiff(before ?? "", merged.text, basename(file.path)));
    return;
  }
  if (before !== undefined && hasComments(before) && !options.force)
    throw new UsageError(`${file.path} has comments, which rewriting it would drop: pass --force to write it anyway`);
  write(file.path, merged.text, before !== undefined);
  const how = merged.change === "added" ? "Added" : "Replaced";
  const backup = before !== undefined ? ` (the file as it was: ${file.path}.bak)` : "";
  process.stdout.write(`${how} "${name}" in ${file.path}${backup}.\n${restartHint(client)}\n`);
}

/** A backup of the file as it was, then the new text written beside it and renamed over it. */
function write(path: string, text: string, existed: boolean): void {
  mkdirSync(dirname(path), { recursive: true });
  if (existed) copyFileSync(path, `${path}.bak`);
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, path);
}

function restartHint(client: ClientName): string {
  return {
    "claude-desktop": "Restart Claude Desktop to start it.",
    "claude-code": "Claude Code asks to approve a project's servers the next time it starts here.",
    cursor: "Cursor picks it up in Settings → MCP.",
    vscode: "VS Code lists it under MCP: List Servers.",
  }[client];
}

function pairs(values: string[], separator: string, usage: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const value of values) {
    const at = value.indexOf(separator);
    if (at <= 0) throw new UsageError(`${usage}, not "${value}"`);
    out[value.slice(0, at).trim()] = value.slice(at + 1).trim();
  }
  return out;
}
