import { builtinModules } from "node:module";
import { basename, resolve } from "node:path";
import { parseArgs } from "node:util";
import { isTemplateName, TEMPLATE_NAMES, TEMPLATES, type TemplateName } from "./templates.js";

/** What the command line answered; the questions left open are asked, or take their defaults. */
export interface Answers {
  directory?: string;
  template?: TemplateName;
  name?: string;
  description?: string;
  mcpName?: string;
  /** --from DIR: mcpkit's packages from the tarballs `npm run release` packed there. */
  from?: string;
  install?: boolean;
  yes: boolean;
  force: boolean;
  help: boolean;
  version: boolean;
}

/** A mistake on the command line: printed with the usage, exit code 2. */
export class UsageError extends Error {}

export const DEFAULTS = {
  directory: "my-mcp-server",
  template: "stdio" as TemplateName,
  install: true,
};

export const USAGE = `Usage: npm create mcpkit@latest [DIRECTORY] -- [options]
       npx create-mcpkit [DIRECTORY] [options]

Creates an MCP server project with mcpkit in DIRECTORY (default: ${DEFAULTS.directory}).
At a terminal it asks what the flags do not answer; elsewhere, or with --yes, the
defaults are taken. In a script, give npm's --yes too (npm asks before it installs the
package that runs this): npm create --yes mcpkit@latest DIR -- --yes, or
npx --yes create-mcpkit DIR --yes.

Options:
  -t, --template NAME   the kind of server (default: ${DEFAULTS.template}):
${TEMPLATE_NAMES.map((name) => `                          ${name.padEnd(8)} ${TEMPLATES[name].summary}`).join("\n")}
  --name NAME           the package's name (default: the directory's, as npm allows one)
  --description TEXT    one line on what the server does
  --mcp-name NAME       its name in the MCP Registry, such as io.github.you/my-server
                        (package.json "mcpName"; mcpkit bundle --server-json needs it)
  --from DIR            take mcpkit and @mcpkit/cli from the tarballs in DIR (what
                        npm run release packs in a clone of mcpkit), not the registry
  --install             install the dependencies (the default)
  --no-install          do not install them
  -y, --yes             take the default for every question the flags leave open
  -f, --force           write into a directory that is not empty
  -h, --help            show this help
  -v, --version         show create-mcpkit's version
`;

/** Reads the command line; throws a UsageError on a mistake. */
export function parseAnswers(argv: string[]): Answers {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (positionals.length > 1) throw new UsageError(`One directory, please: got ${positionals.join(", ")}`);
  if (values.install && values["no-install"]) throw new UsageError("--install and --no-install contradict each other");
  const template = values.template;
  if (template !== undefined && !isTemplateName(template))
    throw new UsageError(`Unknown template "${template}": choose one of ${TEMPLATE_NAMES.join(", ")}`);
  if (values.name !== undefined) checkPackageName(values.name);
  if (values["mcp-name"] !== undefined) checkMcpName(values["mcp-name"]);
  return {
    ...(positionals[0] !== undefined && { directory: positionals[0] }),
    ...(template !== undefined && { template }),
    ...(values.name !== undefined && { name: values.name }),
    ...(values.description !== undefined && { description: values.description }),
    ...(values["mcp-name"] !== undefined && { mcpName: values["mcp-name"] }),
    ...(values.from !== undefined && { from: values.from }),
    ...(values.install && { install: true }),
    ...(values["no-install"] && { install: false }),
    yes: values.yes === true,
    force: values.force === true,
    help: values.help === true,
    version: values.version === true,
  };
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      template: { type: "string", short: "t" },
      name: { type: "string" },
      description: { type: "string" },
      "mcp-name": { type: "string" },
      from: { type: "string" },
      install: { type: "boolean" },
      "no-install": { type: "boolean" },
      yes: { type: "boolean", short: "y" },
      force: { type: "boolean", short: "f" },
      help: { type: "boolean", short: "h" },
      version: { type: "boolean", short: "v" },
    },
  });
}

/** npm's rules for a new package's name (those of validate-npm-package-name that a project can break). */
export function checkPackageName(name: string): void {
  const own = name.replace(/^@[^/]*\//, "");
  const problem =
    name.length === 0 || name.length > 214
      ? "must be 1 to 214 characters long"
      : name !== name.toLowerCase()
        ? "must be lowercase"
        : !/^(@[a-z0-9-][a-z0-9-._]*\/)?[a-z0-9-][a-z0-9-._]*$/.test(name)
          ? "may hold only letters, digits, - . and _ (and one @scope/), and may not start with . or _"
          : ["node_modules", "favicon.ico"].includes(own)
            ? "is one npm keeps for itself"
            : name === own && builtinModules.includes(name)
              ? `is the name of Node's own module ${name} (the npm registry refuses it)`
              : undefined;
  if (problem) throw new UsageError(`"${name}" is not a valid package name: it ${problem}`);
}

/** The MCP Registry's server name: reverse-DNS namespace, one slash, the server's own name. */
export function checkMcpName(name: string): void {
  if (!/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/.test(name))
    throw new UsageError(`--mcp-name "${name}" must look like io.github.you/my-server (one "/", no spaces)`);
}

/**
 * The package name a directory suggests: its last segment as npm allows a name, lowercased,
 * each run of other characters a dash, without the dots, dashes and underscores npm refuses
 * at its start (and the dashes at its end). Empty when nothing is left.
 */
export function nameFromDirectory(directory: string): string {
  return basename(resolve(directory))
    .toLowerCase()
    .replace(/[^a-z0-9-._]+/g, "-")
    .replace(/^[._-]+|-+$/g, "");
}
