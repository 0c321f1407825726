// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the clients' own syntax for a variable, ${NAME}, is text here
import { existsSync, readFileSync } from "node:fs";
import { basename } from "node:path";
import { unifiedDiff } from "@mcpkit/servers/workspace/diff";
import { Command, Option } from "commander";
import {
  CLIENTS,
  type ClientName,
  clientEntry,
  DEFAULT_SCOPE,
  herePlace,
  installFile,
  mergeEntry,
  type Scope,
} from "../../config/index.js";
import { ChangedMeanwhile, fileBehind, replaceFile } from "../../files/replace-file.js";
import { mcpkitCommand } from "../../self.js";
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

The entry is edited into the file in place (comments, layout and the other servers kept),
through a temporary file renamed over it; the file as it was is kept beside it as FILE.bak.
A server of the same name is replaced only with --force. Paths among the server's words are
made absolute, since clients start servers from their own folder; mcpkit itself is written
as this Node and this installation's script (--npx: npx -y @mcpkit/cli instead). Values
given with -e and -H are written in clear: prefer a reference to a variable for a secret.

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
    .option("--force", "replace a server of the same name in the file")
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
  const env = pairs(options.env ?? [], "=", "--env takes KEY=VALUE");
  const headers = pairs(options.header ?? [], ":", '--header takes "Name: value"');
  const mcpkit = mcpkitCommand(options.npx === true);
  const described = describeServer(serverWords, { cwd: place.cwd, env, headers, mcpkit });
  const name = named[0] ?? described.name;
  if (name === undefined)
    throw new UsageError(`Name the server: mcpkit install ${client} NAME -- ${serverWords.join(" ")}`);
  if (name.trim() === "") throw new UsageError("A server's name cannot be empty");
  if (/\p{Cc}/u.test(name))
    throw new UsageError(`${JSON.stringify(name)} cannot name a server: it holds a control character (a line break?)`);
  const scope = options.scope ?? DEFAULT_SCOPE[client];
  let file: ReturnType<typeof installFile>;
  let behind: ReturnType<typeof fileBehind>;
  try {
    file = installFile(client, scope, place);
    behind = fileBehind(file.path);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const entry = clientEntry(client, described.spec, mcpkit);
  const secrets = inClear(env, headers);
  const backup = `${file.path}.bak`;
  // A client may write its file while we do: then the edit is made again on what it wrote.
  for (let attempt = 1; ; attempt++) {
    const before = existsSync(behind.file) ? readFileSync(behind.file, "utf8") : undefined;
    let merged: ReturnType<typeof mergeEntry>;
    try {
      merged = mergeEntry(before, file.key, name, entry);
    } catch (error) {
      throw new Error(
        `Cannot add "${name}" to ${file.path}: ${(error as Error).message}. Nothing was written: fix the file, or move it away, and run this again`,
      );
    }
    if (merged.change === "unchanged") {
      process.stdout.write(`${file.path} already has "${name}" as given: nothing to change.\n`);
      return;
    }
    const taken =
      merged.change === "replaced" && !options.force
        ? `${file.path} already has a server named "${name}" (${JSON.stringify(merged.previous)}): pass --force to replace it, or give another name (mcpkit install ${client} NAME -- …)`
        : undefined;
    if (options.dryRun) {
      process.stdout.write(`Would ${merged.change === "added" ? "add" : "replace"} "${name}" in ${file.path}:\n`);
      process.stdout.write(unifiedDiff(before ?? "", merged.text, basename(file.path)));
      if (taken) process.stdout.write(`Without --force nothing would be written: ${taken}\n`);
      warnInClear(secrets, file.path, client, scope);
      return;
    }
    if (taken) throw new UsageError(taken);
    try {
      replaceFile(behind.file, merged.text, {
        expected: before,
        ...(before !== undefined && { backup }),
        // A new file that holds a secret is its owner's alone.
        ...(secrets.length > 0 && { newMode: 0o600 }),
      });
    } catch (error) {
      if (!(error instanceof ChangedMeanwhile)) throw error;
      if (attempt < 3) continue;
      throw new Error(
        `${file.path} kept changing while mcpkit wrote it (is ${client} writing it?): nothing was written; run this again`,
      );
    }
    const how = merged.change === "added" ? "Added" : "Replaced";
    const notes = [
      ...(behind.link ? [`a link: written to ${behind.file}`] : []),
      ...(before !== undefined ? [`the file as it was: ${backup}`] : []),
    ];
    const noted = notes.length > 0 ? ` (${notes.join("; ")})` : "";
    process.stdout.write(`${how} "${name}" in ${file.path}${noted}.\n${restartHint(client)}\n`);
    warnInClear(secrets, file.path, client, scope);
    return;
  }
}

/** The -e variables and -H headers whose names say they hold a secret, given as values rather than references to a variable. */
function inClear(env: Record<string, string>, headers: Record<string, string>): string[] {
  const secret = /token|secret|passw|api[-_]?key|access[-_]?key|private|credential|auth|cookie|session/i;
  return [...Object.entries(env), ...Object.entries(headers)]
    .filter(([key, value]) => secret.test(key) && !value.includes("${"))
    .map(([key]) => key);
}

/**
 * A secret given with -e or -H is written as it is into the client's file, where whoever
 * reads the file reads it (and a project's file is often committed): said on stderr, with
 * the client's way to refer to a variable instead.
 */
function warnInClear(secrets: string[], path: string, client: ClientName, scope: Scope): void {
  if (secrets.length === 0) return;
  const reference = {
    "claude-code": "${NAME}",
    vscode: "${env:NAME} (or an input with password: true)",
    cursor: "${env:NAME}",
    "claude-desktop": undefined,
  }[client];
  const them = secrets.length === 1 ? "it" : "them";
  const instead = reference
    ? `To keep ${them} out, write a reference to a variable instead, such as ${reference}, set where ${client} starts.`
    : "Claude Desktop reads no variables in its file: keep the file to yourself.";
  const project = scope === "project" ? " It is this project's file: keep it out of version control." : "";
  process.stderr.write(
    `mcpkit install: note: ${secrets.join(", ")} ${secrets.length === 1 ? "is" : "are"} written as given into ${path}, for anyone who can read the file.${project} ${instead}\n`,
  );
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
