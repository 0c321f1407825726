// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the clients' own syntax for a variable, ${NAME}, is text here
import { existsSync, readFileSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { unifiedDiff } from "@mcpkit/servers/workspace/diff";
import { Command, Option } from "commander";
import {
  clientEntry,
  DEFAULT_SCOPE,
  herePlace,
  INSTALL_CLIENT_INFO,
  INSTALL_CLIENTS,
  type InstallClient,
  installFile,
  mergeInto,
  placeSpec,
  type Scope,
} from "../../config/index.js";
import { isInside, realLocation } from "../../files/real-location.js";
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
  followLinks?: boolean;
  envFile?: string;
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

const HELP = `
The server, after --:
  URL                        a server over Streamable HTTP (Claude Desktop, Cline and Zed
                             reach it through mcpkit serve proxy)
  SERVER [FLAGS…]            a built-in server: everything, workspace, weather, github, proxy
  ./server.js|.ts [FLAGS…]   your module, served by mcpkit serve (a default-exported server)
  COMMAND [ARGS…]            any command that speaks MCP on stdin and stdout

Files written (--scope; the default is marked *):
  claude-code     project*  .mcp.json                user: ~/.claude.json
  vscode          project*  .vscode/mcp.json         user: VS Code's user mcp.json
  cursor          user*     ~/.cursor/mcp.json       project: .cursor/mcp.json
  claude-desktop  user*     claude_desktop_config.json in Claude's settings folder
  windsurf        user*     ~/.codeium/windsurf/mcp_config.json
  cline           user*     cline_mcp_settings.json in VS Code's global storage
  gemini          project*  .gemini/settings.json    user: ~/.gemini/settings.json
  zed             user*     ~/.config/zed/settings.json (context_servers)   project: .zed/settings.json
  codex           user*     ~/.codex/config.toml ($CODEX_HOME)              project: .codex/config.toml
  goose           user*     ~/.config/goose/config.yaml (extensions)
  continue        project*  .continue/mcpServers/NAME.yaml                  user: ~/.continue/config.yaml

The entry is edited into the file in place (comments, layout and the other servers kept),
through a temporary file renamed over it; the file as it was is kept beside it as FILE.bak.
A project's file that is a link leading out of the project is not edited without
--follow-links (a cloned repository can plant one); a file reached through a link is
edited where it is, and its .bak made there. A server of the same name is replaced only
with --force.

Paths: in a project's file, those inside the project are written relative to it (Claude
Code, Gemini CLI) or with \${workspaceFolder} (VS Code, Cursor), and mcpkit is the project's
own node_modules/.bin/mcpkit, so the entry works in a teammate's clone; in a user's file
(and Zed's, Codex's and Continue's project files, which name no folder to start in) they are
absolute, as on this machine, and mcpkit is this Node and this installation's script (--npx:
npx -y @mcpkit/cli, once it is published). Values given with -e and -H are written in clear:
prefer a reference to a variable, or --env-file.

Examples:
  $ mcpkit install claude-desktop -- workspace --root ~/notes
  $ mcpkit install claude-desktop my-server -- node dist/main.js
  $ mcpkit install claude-code --env-file .env -- ./src/server.ts
  $ mcpkit install vscode docs -H "Authorization: Bearer \${env:DOCS_TOKEN}" -- https://example.com/mcp
  $ mcpkit install codex -- ./src/server.ts
  $ mcpkit install cursor --dry-run -- everything
`;

export function installCommand(): Command {
  return new Command("install")
    .description(COMMAND_SUMMARIES.install.description)
    .usage("<client> [name] [options] -- <server…>")
    .argument("<client>", `the client: ${INSTALL_CLIENTS.join(", ")}`)
    .argument("[words...]", "the entry's name (default: the server's or the package's), then -- and the server")
    .addOption(
      new Option("--scope <scope>", "this project's file or yours (default: per client)").choices(["project", "user"]),
    )
    .option("--dry-run", "print the change to the file and write nothing")
    .option("-e, --env <KEY=VALUE>", "a variable for a server started by a command (repeatable)", collect)
    .option("-H, --header <header>", 'an HTTP header for a server at a URL, "Name: value" (repeatable)', collect)
    .option("--npx", "start mcpkit with npx -y @mcpkit/cli (once it is published) instead of this installation's path")
    .option(
      "--env-file <file>",
      "a file of variables the server is started with: VS Code reads it itself (envFile); for a server Node starts (node, mcpkit), node --env-file does",
    )
    .option("--force", "replace a server of the same name in the file")
    .option(
      "--follow-links",
      "edit a project's file that is a link (or in a linked folder) leading out of the project, as mcpkit will not otherwise",
    )
    .addHelpText("after", HELP)
    .exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : USAGE_EXIT))
    .action((client: string, words: string[], options: InstallOptions) => {
      if (!(INSTALL_CLIENTS as readonly string[]).includes(client))
        throw new UsageError(`Unknown client "${client}": choose one of ${INSTALL_CLIENTS.join(", ")}`);
      install(client as InstallClient, words, options);
    });
}

function install(client: InstallClient, words: string[], options: InstallOptions): void {
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
    file = installFile(client, scope, place, name);
    behind = fileBehind(file.path);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const envFile = options.envFile === undefined ? undefined : resolve(options.envFile);
  if (envFile !== undefined && !existsSync(envFile))
    throw new UsageError(`--env-file ${options.envFile}: no such file (${envFile})`);
  let placed: ReturnType<typeof placeSpec>;
  try {
    placed = placeSpec(described.spec, file, { mcpkit, ...(envFile !== undefined && { envFile }) });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  // A project's file that leads out of the project (a link a cloned repository may have
  // planted, to ~/.claude.json say) is edited only when the user says so.
  const real = realLocation(file.path);
  if (file.project !== undefined && !isInside(real, realLocation(file.project)) && !options.followLinks)
    throw new UsageError(
      `${file.path} leads to ${real}, outside this project (${file.project}): a cloned repository can plant such a link ` +
        "to have a file of yours edited. Nothing was written; pass --follow-links if you made the link yourself",
    );
  const entry = clientEntry(client, placed.spec, name, placed.envFile);
  const secrets = inClear(env, headers);
  // Through a link of its own or of a folder on the way (the folders above the project, or
  // above a user's file, are as they are).
  const base = file.project ?? dirname(file.path);
  const linked = real !== join(realLocation(base), relative(base, file.path));
  // Beside the file actually edited: never a copy of a file from elsewhere left in the project.
  const backup = `${real}.bak`;
  // A client may write its file while we do: then the edit is made again on what it wrote.
  for (let attempt = 1; ; attempt++) {
    const before = existsSync(behind.file) ? readFileSync(behind.file, "utf8") : undefined;
    let merged: ReturnType<typeof mergeInto>;
    try {
      merged = mergeInto(file, before, name, entry);
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
      sayPlaced(placed.notes);
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
      ...(linked ? [`a link: written to ${real}`] : []),
      ...(before !== undefined ? [`the file as it was: ${backup}`] : []),
    ];
    const noted = notes.length > 0 ? ` (${notes.join("; ")})` : "";
    process.stdout.write(`${how} "${name}" in ${file.path}${noted}.\n${INSTALL_CLIENT_INFO[client].next}\n`);
    sayPlaced(placed.notes);
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
function warnInClear(secrets: string[], path: string, client: InstallClient, scope: Scope): void {
  if (secrets.length === 0) return;
  const { title, variable } = INSTALL_CLIENT_INFO[client];
  const them = secrets.length === 1 ? "it" : "them";
  const instead = variable
    ? `To keep ${them} out, write a reference to a variable instead, such as ${variable}, set where ${title} starts.`
    : `${title} reads no variables in its file: keep the file to yourself, or use --env-file.`;
  const project = scope === "project" ? " It is this project's file: keep it out of version control." : "";
  process.stderr.write(
    `mcpkit install: note: ${secrets.join(", ")} ${secrets.length === 1 ? "is" : "are"} written as given into ${path}, for anyone who can read the file.${project} ${instead}\n`,
  );
}

/** What placing the command for this file decided that the user should know (placement.ts). */
function sayPlaced(notes: string[]): void {
  for (const note of notes) process.stderr.write(`mcpkit install: note: ${note}\n`);
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
