import { spawnSync } from "node:child_process";
import { existsSync, lstatSync, readdirSync, readlinkSync, type Stats, statSync } from "node:fs";
import { basename, join, relative, resolve } from "node:path";
import { ask } from "./ask.js";
import { generate, slugOf } from "./generate.js";
import {
  type Answers,
  checkPackageName,
  DEFAULTS,
  nameFromDirectory,
  parseAnswers,
  USAGE,
  UsageError,
} from "./options.js";
import { TEMPLATES } from "./templates.js";
import { VERSION } from "./versions.js";

/** The package manager that ran us (npm create, pnpm create, yarn create, bun create). */
function packageManager(): string {
  const agent = process.env.npm_config_user_agent ?? "";
  return ["pnpm", "yarn", "bun"].find((pm) => agent.startsWith(`${pm}/`)) ?? "npm";
}

async function main(argv: string[]): Promise<number> {
  const answers = parseAnswers(argv);
  if (answers.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  if (answers.version) {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  const interactive = !answers.yes && process.stdin.isTTY === true && process.stderr.isTTY === true;
  const asked = interactive
    ? await ask({
        directory: answers.directory === undefined,
        template: answers.template === undefined,
        install: answers.install === undefined,
      })
    : {};
  const directory = resolve(answers.directory ?? asked.directory ?? DEFAULTS.directory);
  const template = answers.template ?? asked.template ?? DEFAULTS.template;
  const install = answers.install ?? asked.install ?? DEFAULTS.install;
  const name = answers.name ?? derivedName(directory);
  checkPackageName(name);
  refuseToOverwrite(directory, answers);

  const files = generate({
    directory,
    template,
    name,
    description: answers.description ?? TEMPLATES[template].description,
    ...(answers.mcpName !== undefined && { mcpName: answers.mcpName }),
    ...authorOf(directory),
    ...(answers.from !== undefined && { localPackages: localPackages(answers.from) }),
  });
  const where = relative(process.cwd(), directory) || ".";
  process.stderr.write(`Created ${name} in ${where} from the ${template} template:\n  ${files.join("\n  ")}\n`);

  const pm = packageManager();
  if (install) {
    process.stderr.write(`\nInstalling the dependencies (${pm} install)…\n`);
    const run = spawnSync(pm, ["install"], { cwd: directory, stdio: "inherit", shell: process.platform === "win32" });
    if (run.status !== 0) {
      process.stderr.write(`\n${pm} install failed; the project is there: run it again in ${where}.\n`);
      // Until mcpkit is published, the registry answers E404 for it.
      if (answers.from === undefined)
        process.stderr.write(
          "If it could not find mcpkit or @mcpkit/cli (E404): they are not on the npm registry yet. Make the project again\n" +
            "with --from DIR, DIR being the release folder of a clone of mcpkit (npm run release packs it).\n",
        );
      return 1;
    }
  }
  const run = pm === "npm" ? "npm run" : pm;
  const steps = [
    where === "." ? undefined : `cd ${where}`,
    install ? undefined : `${pm} install`,
    `${`${pm} test`.padEnd(16)}# type-check and run the tests`,
    `${`${run} dev`.padEnd(16)}# serve it, reloading on every change`,
  ].filter((step): step is string => step !== undefined);
  process.stderr.write(`\nNext:\n  ${steps.join("\n  ")}\nREADME.md says the rest (${slugOf(name)}).\n`);
  return 0;
}

/**
 * package.json's author, as git names a commit's author in that folder (GIT_AUTHOR_NAME or
 * user.name, with the email likewise): what mcpkit bundle writes into a bundle. Nothing when
 * git has no name (the OS account is never taken for one).
 */
function authorOf(directory: string): { author?: string } {
  const git = (key: string) => {
    const run = spawnSync("git", ["config", "--get", key], {
      cwd: existsSync(directory) ? directory : process.cwd(),
      encoding: "utf8",
    });
    return run.status === 0 && run.stdout.trim() !== "" ? run.stdout.trim() : undefined;
  };
  const name = process.env.GIT_AUTHOR_NAME?.trim() || git("user.name");
  if (!name) return {};
  const email = process.env.GIT_AUTHOR_EMAIL?.trim() || git("user.email");
  return { author: email ? `${name} <${email}>` : name };
}

/** The package's name from the directory's, said when npm's rules changed it. */
function derivedName(directory: string): string {
  const name = nameFromDirectory(directory);
  const folder = basename(directory);
  if (name === "")
    throw new UsageError(
      `"${folder}" leaves nothing of a package name: give one with --name (such as --name my-server)`,
    );
  if (name !== folder)
    process.stderr.write(
      `The package is named ${name}, from "${folder}" as npm allows a name (--name chooses another).\n`,
    );
  return name;
}

/** A directory with files in it is written into only with --force: nothing of the user's is overwritten unasked. */
function refuseToOverwrite(directory: string, answers: Answers): void {
  let stats: Stats;
  try {
    stats = lstatSync(directory);
  } catch {
    return; // not there yet: made
  }
  if (stats.isSymbolicLink() && !existsSync(directory))
    throw new Error(
      `${directory} is a link to ${readlinkSync(directory)}, which does not exist: make that folder first, or choose another`,
    );
  if (!statSync(directory).isDirectory())
    throw new Error(`${directory} is a file, not a folder: choose another directory`);
  if (answers.force) return;
  const entries = readdirSync(directory).filter((entry) => entry !== ".git");
  if (entries.length > 0)
    throw new Error(`${directory} is not empty: choose another directory, or pass --force to write into it`);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof UsageError) {
      process.stderr.write(`create-mcpkit: ${error.message}\n\n${USAGE}`);
      process.exitCode = 2;
    } else {
      process.stderr.write(`create-mcpkit: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    }
  },
);

/**
 * `file:` specs of the mcpkit, @mcpkit/cli and @mcpkit/servers (the CLI's dependency)
 * tarballs in `dir` (as `npm run release` names them), so that `npm install` looks for
 * none of them on the registry.
 */
function localPackages(dir: string): Record<"mcpkit" | "@mcpkit/cli" | "@mcpkit/servers", string> {
  const specs = {
    mcpkit: `mcpkit-${VERSION}.tgz`,
    "@mcpkit/cli": `mcpkit-cli-${VERSION}.tgz`,
    "@mcpkit/servers": `mcpkit-servers-${VERSION}.tgz`,
  };
  for (const file of Object.values(specs)) {
    if (!existsSync(join(resolve(dir), file)))
      throw new UsageError(`--from ${dir}: no ${file} there (npm run release, in a clone of mcpkit, packs it)`);
  }
  return {
    mcpkit: `file:${join(resolve(dir), specs.mcpkit)}`,
    "@mcpkit/cli": `file:${join(resolve(dir), specs["@mcpkit/cli"])}`,
    "@mcpkit/servers": `file:${join(resolve(dir), specs["@mcpkit/servers"])}`,
  };
}
