#!/usr/bin/env node
// `npm run release [-- --out DIR]`: the publishable packages packed as npm would publish
// them (npm pack, after a build), into release/ (or DIR), with SHA256SUMS beside them.
// Until the packages are on the npm registry, this is how to install mcpkit: from these
// tarballs (README.md, "Install"). Prints the commands that install them.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { npmCommand, npmEnv } from "./node-runtime.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
/** The packages released together, at one version. */
export const RELEASED = [
  "packages/mcpkit",
  "packages/servers",
  "packages/cli",
  "packages/redis",
  "packages/create-mcpkit",
];

/**
 * Packs every released package into `out` (emptied first) and writes SHA256SUMS there, in
 * the format `sha256sum -c` reads. Returns the tarballs' file names, in RELEASED's order.
 * @param {string} out
 * @returns {{ name: string; file: string; sha256: string }[]}
 */
export function release(out) {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const [command, ...prefix] = npmCommand();
  /** @param {string[]} args @param {string} cwd */
  const run = (args, cwd) => {
    const done = spawnSync(command, [...prefix, ...args], {
      cwd,
      encoding: "utf8",
      env: npmEnv(),
      shell: command.endsWith(".cmd"),
    });
    if (done.status !== 0) throw new Error(`npm ${args.join(" ")} failed in ${cwd}:\n${done.stderr}${done.stdout}`);
    return done.stdout;
  };
  run(["run", "build"], root);
  const packed = [];
  for (const pkg of RELEASED) {
    const [result] = JSON.parse(run(["pack", "--json", "--pack-destination", out], join(root, pkg)));
    const sha256 = createHash("sha256")
      .update(readFileSync(join(out, result.filename)))
      .digest("hex");
    packed.push({ name: result.name, file: result.filename, sha256 });
  }
  writeFileSync(join(out, "SHA256SUMS"), packed.map((p) => `${p.sha256}  ${p.file}\n`).join(""));
  return packed;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { values } = parseArgs({ options: { out: { type: "string" } } });
  const out = resolve(values.out ?? join(root, "release"));
  const packed = release(out);
  const shown = relative(process.cwd(), out) || ".";
  /** @param {string} name */
  const file = (name) => join(out, packed.find((p) => p.name === name)?.file ?? "");
  process.stdout.write(
    `Packed into ${shown}/ (checksums in SHA256SUMS; check them with: cd ${shown} && sha256sum -c SHA256SUMS):\n` +
      packed.map((p) => `  ${p.file}  ${p.sha256}\n`).join("") +
      "\nInstall from them:\n" +
      `  npm install ${file("mcpkit")}                        # the library\n` +
      `  npm install ${file("@mcpkit/servers")} ${file("mcpkit")}   # the built-in servers, to mount or serve\n` +
      `  npm install -g ${file("@mcpkit/cli")} ${file("@mcpkit/servers")} ${file("mcpkit")}   # the mcpkit command\n` +
      `  npx --yes --package=${file("create-mcpkit")} create-mcpkit my-server --from ${out} --yes   # a new project, mcpkit from here\n`,
  );
}
