import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { UsageError } from "../usage-error.js";
import { copyIncluded, type Included } from "./include.js";

/** What the bundle's server folder is built from: your module, or a built-in server with its flags. */
export type BundleSource =
  | { kind: "module"; file: string; include: string[] }
  | { kind: "built-in"; name: string; args: string[] };

/** The server folder of a bundle: JavaScript files (an ES module package) and the native packages beside them. */
export interface BuiltServer {
  /** The entry point, relative to the bundle's root. */
  entry: string;
  /** Whether it carries a native module, built for this platform only. */
  native: boolean;
  /** What --include brought in, and what the folders it names hold that was left out. */
  included: Included;
}

const CLI_ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const cliRequire = createRequire(join(CLI_ROOT, "package.json"));
/** The workspace server's SQLite child process, a file of its own in @mcpkit/servers. */
const queryProcessFile = () =>
  join(dirname(cliRequire.resolve("@mcpkit/servers/package.json")), "dist/workspace/sqlite/query-process.js");

/**
 * Packages with native code: not bundled but copied, built for this platform, with the
 * packages they load at run time (their install-time dependencies stay behind).
 */
const NATIVE: Record<string, string[]> = { "better-sqlite3": ["bindings", "file-uri-to-path"] };
/** Packages the command may load that a server never does, or that a bundle cannot hold. */
const NEVER = ["esbuild", "@mcpkit/redis", "ioredis"];
/** CommonJS packages inside an ES module still call require(): it is made for them. */
const REQUIRE =
  'import { createRequire as __mcpkitRequire } from "node:module"; const require = __mcpkitRequire(import.meta.url);';

/**
 * Builds `root/server/`: one JavaScript file with the server and everything it imports
 * (esbuild; packages included, so the bundle needs only Node), and, for a built-in server,
 * the CLI it runs under. Node built-ins stay imports; CommonJS packages get a `require`.
 */
export async function buildServer(source: BundleSource, root: string): Promise<BuiltServer> {
  let esbuild: typeof import("esbuild");
  try {
    esbuild = await import("esbuild");
  } catch {
    throw new UsageError(
      "mcpkit bundle builds with esbuild: install it beside @mcpkit/cli (npm install --save-dev esbuild)",
    );
  }
  const outdir = join(root, "server");
  mkdirSync(outdir, { recursive: true });
  // The folder is an ES module package: its .js files are modules.
  writeFileSync(join(outdir, "package.json"), '{ "type": "module" }\n');
  const entries: Record<string, string> = {};
  let stdin: { contents: string; resolveDir: string };
  const native = source.kind === "built-in" && source.name === "workspace" ? Object.keys(NATIVE) : [];
  if (source.kind === "module") {
    stdin = { contents: moduleStub(source.file), resolveDir: dirname(source.file) };
  } else {
    stdin = { contents: builtInStub(source.name, source.args), resolveDir: CLI_ROOT };
    // The CLI reads its version from the package.json above its files.
    const { version } = JSON.parse(readFileSync(join(CLI_ROOT, "package.json"), "utf8")) as { version: string };
    writeFileSync(join(root, "package.json"), `${JSON.stringify({ name: "mcpkit-bundle", version, private: true })}\n`);
    // The workspace runs each SQL statement in a child process of this file (sqlite/engine.ts).
    if (source.name === "workspace") entries["query-process"] = queryProcessFile();
  }
  const common: import("esbuild").BuildOptions = {
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    external: [...NEVER, ...native],
    banner: { js: REQUIRE },
    logLevel: "silent",
  };
  try {
    await esbuild.build({
      ...common,
      stdin: { ...stdin, sourcefile: "mcpkit-bundle-entry.js", loader: "js" },
      outfile: join(outdir, "index.js"),
      legalComments: "none",
    });
    if (Object.keys(entries).length > 0) await esbuild.build({ ...common, entryPoints: entries, outdir });
  } catch (error) {
    const errors = (error as { errors?: { text: string; location?: { file: string; line: number } | null }[] }).errors;
    if (!errors) throw error;
    throw new Error(
      `The server does not build:\n${errors.map((e) => `  ${e.location ? `${e.location.file}:${e.location.line}: ` : ""}${e.text}`).join("\n")}`,
    );
  }
  // Files the module reads beside itself (new URL("./x", import.meta.url)), at the same place
  // beside the bundled file.
  const included =
    source.kind === "module" ? copyIncluded(source.include, dirname(source.file), outdir) : { files: [], leftOut: [] };
  for (const name of native)
    for (const pkg of [name, ...(NATIVE[name] ?? [])]) copyPackage(pkg, cliRequire, join(outdir, "node_modules"));
  return { entry: "server/index.js", native: native.length > 0, included };
}

/** Serves the module's default export (an McpServer or a function making one) over stdio. */
function moduleStub(file: string): string {
  return `import { stdioServerTransport } from "mcpkit/stdio";
import * as module from ${JSON.stringify(file)};
const exported = module.default ?? module.server;
const server = typeof exported === "function" && typeof exported.connect !== "function" ? await exported({}) : exported;
// stdout carries the protocol: what the server logs goes to stderr.
console.log = console.info = console.debug = console.error;
const session = await server.connect(stdioServerTransport());
await session.closed;
`;
}

/** Runs mcpkit serve NAME --stdio with the given flags, and those the client adds. */
function builtInStub(name: string, args: string[]): string {
  const argv = JSON.stringify(["serve", name, "--stdio", ...args]);
  return `process.argv.splice(2, 0, ...${argv});
await import(${JSON.stringify(join(CLI_ROOT, "dist/main.js"))});
`;
}

/** Copies an installed package (found from `from`, else from where the ones before it were) into `into`. */
function copyPackage(name: string, from: NodeJS.Require, into: string): void {
  let manifest: string;
  try {
    manifest = from.resolve(`${name}/package.json`);
  } catch {
    return; // an optional dependency that is not installed: the server says what is missing
  }
  const dir = dirname(manifest);
  cpSync(dir, join(into, name), {
    recursive: true,
    // Sources and build intermediates stay behind: the compiled module is what loads.
    filter: (path) =>
      !/[\\/](deps|src|obj|obj\.target|test)([\\/]|$)|\.(a|c|h|cc|gyp|mk)$/.test(path.slice(dir.length)),
  });
}
