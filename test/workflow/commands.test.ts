import { execFile } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { Help } from "commander";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COMMAND_SUMMARIES } from "../../packages/cli/src/commands/summaries.js";
import { COMMANDS as LOADERS, program } from "../../packages/cli/src/program.js";
import { requireBuild } from "../cli-call/helpers.js";
import { CLI_BIN, homeEnv, mcpkit, REPO_ROOT, scratch } from "./helpers.js";

// The command line itself: -v and --version, each command loaded only when it runs, and
// the completion scripts, loaded into real bash, zsh and fish.

let space: ReturnType<typeof scratch>;
beforeAll(() => {
  requireBuild();
  space = scratch("commands");
});
afterAll(() => space.remove());

const COMMANDS = [
  "serve",
  "call",
  "inspect",
  "doctor",
  "lint",
  "servers",
  "gateway",
  "install",
  "dev",
  "bundle",
  "test",
  "record",
  "replay",
  "snapshot",
  "diff",
  "completion",
];

/** The files under packages/cli/dist/commands/ that running `mcpkit ARGS…` imported. */
async function commandsLoaded(args: string[]): Promise<string[]> {
  const log = join(space.dir, "imports.log");
  rmSync(log, { force: true });
  const hook = join(REPO_ROOT, "test/cli/fixtures/record-imports.mjs");
  await promisify(execFile)(process.execPath, ["--import", hook, CLI_BIN, ...args], {
    env: { ...process.env, IMPORT_LOG: log },
  }).catch(() => {});
  const loaded = readFileSync(log, "utf8").split("\n");
  return [...new Set(loaded.flatMap((url) => /\/dist\/commands\/([^/]+)\//.exec(url)?.[1] ?? []))].sort();
}

describe("mcpkit -v, --version and -V", () => {
  it.each(["-v", "--version", "-V"])("%s prints the version and the Node.js it runs on", async (flag) => {
    const manifest = JSON.parse(readFileSync(join(REPO_ROOT, "packages/cli/package.json"), "utf8"));
    const run = await mcpkit([flag], { cwd: space.dir });
    expect(run).toMatchObject({ code: 0, stdout: `${manifest.version} (Node.js ${process.version})\n` });
  });
});

describe("each command is loaded only when it runs", () => {
  it("--version loads none of them", async () => {
    expect(await commandsLoaded(["--version"])).toEqual([]);
  });

  it.each([
    [["servers", "--names"], ["servers"]],
    [["install", "--help"], ["install"]],
    [
      ["dev", "--help"],
      ["dev", "serve"],
    ], // dev serves through serve's HTTP and stdio code
    [["bundle", "--help"], ["bundle"]],
    [["doctor", "--help"], ["doctor"]],
    [["lint", "--help"], ["lint"]],
    [["snapshot", "--help"], ["snapshot"]],
    [["diff", "--help"], ["diff"]],
  ])("mcpkit %j loads %j", async (args, expected) => {
    expect(await commandsLoaded(args)).toEqual(expected);
  });

  it("help describes them from their summaries, loading none; completion loads them all, to describe them", async () => {
    expect(await commandsLoaded(["--help"])).toEqual([]);
    expect(await commandsLoaded(["help", "call"])).toEqual(["call"]);
    expect(await commandsLoaded(["completion", "bash"])).toEqual([...COMMANDS].sort());
  });

  it("the help that loads no command reads as the help of the loaded commands", async () => {
    const all = await Promise.all(Object.values(LOADERS).map((load) => load()));
    const summaries = Object.keys(COMMAND_SUMMARIES) as (keyof typeof COMMAND_SUMMARIES)[];
    expect(summaries).toEqual(Object.keys(LOADERS));
    const help = new Help();
    for (const command of all) {
      const summary = COMMAND_SUMMARIES[command.name() as keyof typeof COMMAND_SUMMARIES];
      expect({ term: help.subcommandTerm(command), description: command.description() }).toEqual(summary);
    }
    // What `mcpkit --help` prints, summaries and all, against the program with every command loaded.
    const run = await mcpkit(["--help"], { cwd: space.dir });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(program(all).helpInformation());
  });
});

describe("mcpkit completion", () => {
  let bin = "";
  let project = "";
  beforeAll(async () => {
    // `mcpkit` on PATH, as an installed command is, and a project whose .mcp.json names a server.
    bin = join(space.dir, "bin");
    mkdirSync(bin);
    writeFileSync(join(bin, "mcpkit"), `#!/bin/sh\nexec "${process.execPath}" "${CLI_BIN}" "$@"\n`);
    chmodSync(join(bin, "mcpkit"), 0o755);
    project = join(space.dir, "project");
    mkdirSync(project);
    writeFileSync(join(project, ".mcp.json"), JSON.stringify({ mcpServers: { notes: { command: "notes" } } }));
    for (const shell of ["bash", "zsh", "fish"]) {
      const run = await mcpkit(["completion", shell], { cwd: space.dir });
      expect(run.code).toBe(0);
      writeFileSync(join(space.dir, `mcpkit.${shell}`), run.stdout);
    }
  });
  const shell = (command: string, args: string[]) =>
    promisify(execFile)(command, args, {
      cwd: project,
      env: { ...homeEnv(join(space.dir, "home")), PATH: `${bin}:${process.env.PATH}` },
      timeout: 30_000,
    });

  /** What bash's completion function offers for the words typed (the last one being completed). */
  async function bash(...words: string[]): Promise<string[]> {
    const script = `source ${join(space.dir, "mcpkit.bash")}
COMP_WORDS=(${words.map((w) => `'${w}'`).join(" ")}); COMP_CWORD=${words.length - 1}; _mcpkit
printf '%s\\n' "\${COMPREPLY[@]}"`;
    const { stdout } = await shell("bash", ["-c", script]);
    return stdout.split("\n").filter(Boolean).sort();
  }

  it("bash completes commands, options, their choices, built-in servers and configured names", async () => {
    expect(await bash("mcpkit", "se")).toEqual(["serve", "servers"]);
    expect(await bash("mcpkit", "serve", "we")).toEqual(["weather"]);
    expect(await bash("mcpkit", "serve", "--units", "")).toEqual(["imperial", "metric"]);
    expect(await bash("mcpkit", "install", "c")).toEqual([
      "claude-code",
      "claude-desktop",
      "cline",
      "codex",
      "continue",
      "cursor",
    ]);
    expect(await bash("mcpkit", "install", "--scope", "")).toEqual(["project", "user"]);
    expect(await bash("mcpkit", "call", "--log")).toEqual(["--log-level"]);
    expect(await bash("mcpkit", "call", "no")).toEqual(["notes"]);
    expect(await bash("mcpkit", "completion", "")).toEqual(["bash", "fish", "zsh"]);
  });

  it("fish completes the same, its descriptions beside", async () => {
    const fish = async (line: string) =>
      (await shell("fish", ["-c", `source ${join(space.dir, "mcpkit.fish")}; complete -C '${line}'`])).stdout
        .split("\n")
        .filter(Boolean)
        .map((entry) => entry.split("\t")[0])
        .sort();
    expect(await fish("mcpkit se")).toEqual(["serve", "servers"]);
    expect(await fish("mcpkit install --scope ")).toEqual(["project", "user"]);
    expect(await fish("mcpkit call no")).toEqual(["notes"]);
    expect(await fish("mcpkit serve --un")).toEqual(["--units"]);
  });

  it("zsh loads the script and registers its completion for mcpkit", async () => {
    const { stdout } = await shell("zsh", [
      "-f",
      "-c",
      `autoload -U compinit && compinit -u -D && source ${join(space.dir, "mcpkit.zsh")} && print -r -- $_comps[mcpkit] && whence -w _mcpkit _mcpkit_operands`,
    ]);
    expect(stdout).toBe("_mcpkit\n_mcpkit: function\n_mcpkit_operands: function\n");
  });

  it("refuses a shell it does not know", async () => {
    const run = await mcpkit(["completion", "tcsh"], { cwd: space.dir });
    expect(run).toMatchObject({ code: 2 });
    expect(run.stderr).toContain('Unknown shell "tcsh": choose bash, zsh or fish');
  });
});
