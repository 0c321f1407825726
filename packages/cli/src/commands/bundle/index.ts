import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { Command } from "commander";
import { SERVER_NAMES, serverFlags } from "../../built-in/catalog.js";
import { fileBehind, replaceFile } from "../../files/replace-file.js";
import { importModule } from "../../module/import-module.js";
import { isModulePath, loadServerModule } from "../../module/server-module.js";
import { VERSION } from "../../version.js";
import { COMMAND_SUMMARIES } from "../summaries.js";
import { USAGE_EXIT, UsageError } from "../usage-error.js";
import { type BundleSource, buildServer } from "./build.js";
import { contentsList } from "./contents.js";
import { introspect } from "./introspect.js";
import { manifest, pngSize } from "./manifest.js";
import { outputFile, refuseToReplace } from "./output.js";
import { bundleAuthor, bundleName, type Project, readProject, slug } from "./project.js";
import { mcpNameNeeded, serverJson } from "./server-json.js";
import { builtInUserConfig, checkUserConfig, type UserSetting } from "./user-config.js";
import { zip } from "./zip.js";

interface BundleOptions {
  out?: string;
  include?: string[];
  icon?: string;
  serverJson?: boolean;
  mcpName?: string;
  remote?: string[];
  transport?: string;
  mcpbUrl?: string;
  dryRun?: boolean;
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

export function bundleCommand(): Command {
  return new Command("bundle")
    .description(COMMAND_SUMMARIES.bundle.description)
    .argument("<server>", `your module (./src/server.ts or .js) or a built-in server: ${SERVER_NAMES.join(", ")}`)
    .argument("[flags...]", "after --: a built-in server's flags, fixed in the bundle")
    .option(
      "--out <file>",
      "where to write, a file or a folder (default: NAME-VERSION.mcpb here; server.json in the project); only a previous bundle or server.json is replaced",
    )
    .option("--icon <png>", "the bundle's icon (default: icon.png in the project, if there is one)")
    .option(
      "--include <path>",
      "a file or folder the module reads beside itself (new URL('./x', import.meta.url)), relative to it (repeatable); in a folder, what may hold secrets (.env and .envrc files, keys and keystores, cloud and registry credentials, shell histories, Terraform state…) is left out, and named; a link or hard link leading out of the module's folder is never taken",
      collect,
    )
    .option("--dry-run", "build and start it, list what it would hold, and write nothing")
    .option("--server-json", "write the server.json the MCP Registry publishes, instead of a bundle")
    .option("--mcp-name <name>", "with --server-json: the registry name (default: package.json mcpName)")
    .option("--remote <url>", "with --server-json: a URL where it is served over Streamable HTTP (repeatable)", collect)
    .option("--mcpb-url <url>", "with --server-json: where the .mcpb will be published; builds it for its SHA-256")
    .option(
      "--transport <kind>",
      "with --server-json: how the npm package's command serves: stdio (default), or http (Streamable HTTP on http://localhost:$PORT/mcp, PORT default 3000)",
    )
    .addHelpText(
      "after",
      `
The bundle holds one JavaScript file with the server and every package it imports (only
Node is needed to run it), manifest.json (manifest_version 0.3) with the tools and prompts the
running server lists, the settings your module declares (export const userConfig, see
docs/workflow.md) and the icon. It is started once while being made: a server that does not
start is not bundled.

Examples:
  $ mcpkit bundle src/server.ts
  $ mcpkit bundle src/server.ts --server-json --mcp-name io.github.you/my-server
  $ mcpkit bundle weather -- --units imperial
`,
    )
    .exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : USAGE_EXIT))
    .action(async (server: string, flags: string[], options: BundleOptions) => {
      const source = await sourceOf(server, flags, options.include ?? []);
      if (options.serverJson) await writeServerJson(source, options);
      else {
        const written = await writeBundle(source, options, options.out, options.dryRun === true);
        process.stdout.write(`${written.summary}\n`);
      }
    });
}

async function sourceOf(server: string, flags: string[], include: string[]): Promise<BundleSource> {
  if (SERVER_NAMES.includes(server)) {
    if (include.length > 0)
      throw new UsageError("--include is for your module; a built-in server carries what it needs");
    return { kind: "built-in", name: server, args: flags };
  }
  if (!isModulePath(server) || !existsSync(server))
    throw new UsageError(
      `"${server}" is neither your module's path nor a built-in server (${SERVER_NAMES.join(", ")})`,
    );
  if (flags.length > 0)
    throw new UsageError(`Flags after -- are for a built-in server; ${server} reads its settings itself`);
  return { kind: "module", file: resolve(server), include };
}

/** The project a bundle describes: the module's package.json, or mcpkit's for a built-in server. */
async function projectOf(source: BundleSource): Promise<Project> {
  if (source.kind === "module") return readProject(dirname(source.file));
  const flags = await serverFlags(source.name);
  return {
    root: process.cwd(),
    name: `mcpkit-${source.name}`,
    version: VERSION,
    description: flags?.description ?? `mcpkit's ${source.name} server`,
    author: { name: "mcpkit" },
    license: "MIT",
  };
}

async function userConfigOf(source: BundleSource): Promise<Record<string, UserSetting>> {
  if (source.kind === "module") {
    // The module runs here once, to read its userConfig: what it prints goes to stderr, as
    // when it is served over stdio, so stdout holds only what the command itself says.
    const { log, info, debug } = console;
    console.log = console.info = console.debug = console.error;
    let module: { userConfig?: unknown };
    try {
      module = (await importModule(source.file)) as { userConfig?: unknown };
    } finally {
      Object.assign(console, { log, info, debug });
    }
    return checkUserConfig(module.userConfig, relative(process.cwd(), source.file));
  }
  const flags = await serverFlags(source.name);
  // A flag fixed after -- is not asked for again.
  const fixed = new Set(source.args.filter((a) => a.startsWith("--")));
  const settings = builtInUserConfig(flags?.options ?? {});
  return Object.fromEntries(Object.entries(settings).filter(([, s]) => !fixed.has(s.flag as string)));
}

/** Builds the bundle in a scratch folder, starts it, writes manifest.json and zips it all (or only says what it would write). */
async function writeBundle(
  source: BundleSource,
  options: BundleOptions,
  out: string | undefined,
  dryRun = false,
): Promise<{ file: string; bytes: Buffer; summary: string }> {
  // An --out that names a file is checked before the build, not after it.
  if (out !== undefined) refuseToReplace(outputFile(out, "", "."), "bundle");
  const project = await projectOf(source);
  const author = bundleAuthor(project);
  const userConfig = await userConfigOf(source);
  const staging = mkdtempSync(join(tmpdir(), "mcpkit-bundle-"));
  try {
    const server = await buildServer(source, staging);
    const icon = copyIcon(
      options.icon ?? (existsSync(join(project.root, "icon.png")) ? join(project.root, "icon.png") : undefined),
      staging,
    );
    // Started with a value for each setting it asks for: its default, or this folder.
    const args = Object.values(userConfig).flatMap((s) => (s.flag ? [s.flag, String(s.default ?? process.cwd())] : []));
    const introspected = await introspect(staging, join(staging, server.entry), args);
    const name = bundleName(project, source.kind === "module" ? source.file : undefined, introspected.serverInfo.name);
    const made = manifest({ project, name, author, server, introspected, userConfig, ...(icon && { icon }) });
    writeFileSync(join(staging, "manifest.json"), `${JSON.stringify(made, null, 2)}\n`);
    const entries = filesOf(staging).map((path) => ({ path, data: readFileSync(join(staging, path)) }));
    const bytes = zip(entries);
    const file = outputFile(out, `${name}-${slug(String(made.version))}.mcpb`, ".");
    refuseToReplace(file, "bundle");
    if (!dryRun) replaceFile(fileBehind(file).file, bytes);
    const { leftOut, files } = server.included;
    if (leftOut.length > 0)
      process.stderr.write(
        `mcpkit bundle: left out of the bundle (name a file with --include to take it all the same):\n${leftOut.map((l) => `  ${l.path}: ${l.why}\n`).join("")}`,
      );
    const count = (n: number, what: string) => `${n} ${what}${n === 1 ? "" : "s"}`;
    const summary =
      `${dryRun ? "Would write" : "Wrote"} ${relative(process.cwd(), file) || file} (${Math.ceil(bytes.length / 1024)} KB): ` +
      `${made.display_name} ${made.version}, ${count(introspected.tools.length, "tool")}, ` +
      `${count(introspected.prompts.length, "prompt")}${Object.keys(userConfig).length > 0 ? `, ${count(Object.keys(userConfig).length, "setting")}` : ""}\n` +
      (server.sqlite ? `${server.sqlite.note}\n` : "") +
      `${dryRun ? "It would hold" : "It holds"}:\n${contentsList(
        entries.map((e) => ({ path: e.path, bytes: e.data.length })),
        files,
      )}`;
    return { file, bytes, summary };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

function copyIcon(file: string | undefined, staging: string): { file: string; size: string } | undefined {
  if (file === undefined) return undefined;
  const data = readFileSync(file);
  const size = pngSize(data);
  if (!size) throw new UsageError(`${file} is not a PNG: an MCP Bundle's icon is a PNG file`);
  writeFileSync(join(staging, "icon.png"), data);
  return { file: "icon.png", size };
}

/** Every file under `dir`, relative, with forward slashes, sorted (the same input makes the same archive). */
function filesOf(dir: string, prefix = ""): string[] {
  return readdirSync(join(dir, prefix))
    .sort()
    .flatMap((name) => {
      const path = prefix ? `${prefix}/${name}` : name;
      return statSync(join(dir, path)).isDirectory() ? filesOf(dir, path) : [path];
    });
}

async function writeServerJson(source: BundleSource, options: BundleOptions): Promise<void> {
  const project = await projectOf(source);
  const mcpName = options.mcpName ?? project.mcpName;
  if (!mcpName) throw new UsageError(mcpNameNeeded(project));
  if (!/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/.test(mcpName))
    throw new UsageError(`"${mcpName}" is not a registry name: reverse DNS, one "/", such as io.github.you/my-server`);
  if (source.kind === "module" && project.mcpName !== undefined && project.mcpName !== mcpName)
    process.stderr.write(
      `mcpkit bundle: warning: package.json's mcpName is ${project.mcpName}; the registry checks it\n`,
    );
  // The registry refuses an npm package whose published package.json does not name it.
  if (source.kind === "module" && project.mcpName === undefined && project.name)
    process.stderr.write(
      `mcpkit bundle: warning: add "mcpName": "${mcpName}" to package.json before npm publish: the registry checks the npm package for it\n`,
    );
  const userConfig = await userConfigOf(source);
  let serverInfo: import("mcpkit").Implementation;
  let mcpb: { url: string; sha256: string } | undefined;
  if (options.mcpbUrl !== undefined) {
    const built = await writeBundle(source, options, undefined, options.dryRun === true);
    process.stdout.write(`${built.summary}\n`);
    mcpb = { url: options.mcpbUrl, sha256: createHash("sha256").update(built.bytes).digest("hex") };
  }
  if (source.kind === "module") {
    const server = await loadServerModule(source.file);
    serverInfo = server.info;
    await server.close();
  } else serverInfo = { name: `mcpkit-${source.name}`, version: VERSION };
  for (const remote of options.remote ?? [])
    if (!/^https?:\/\/\S+$/.test(remote)) throw new UsageError(`--remote takes an http(s) URL, not "${remote}"`);
  const transport = options.transport ?? "stdio";
  if (transport !== "stdio" && transport !== "http")
    throw new UsageError(`--transport takes stdio or http, not "${transport}"`);
  const json = serverJson({
    project,
    serverInfo,
    userConfig,
    mcpName,
    remotes: options.remote ?? [],
    ...(mcpb && { mcpb }),
    transport,
  });
  const file = outputFile(options.out, "server.json", project.root);
  refuseToReplace(file, "server.json");
  if (options.dryRun) {
    process.stdout.write(`Would write ${relative(process.cwd(), file) || file}:\n${JSON.stringify(json, null, 2)}\n`);
    return;
  }
  replaceFile(fileBehind(file).file, `${JSON.stringify(json, null, 2)}\n`);
  process.stdout.write(
    `Wrote ${relative(process.cwd(), file) || file}: ${mcpName} ${String(json.version)}; publish the package first, then mcp-publisher publish\n`,
  );
}
