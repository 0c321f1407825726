import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { installAdvice } from "../../install-advice.js";
import { UsageError } from "../usage-error.js";
import { copyIncluded, type Included } from "./include.js";
import { type SqliteRuntimes, sqliteRuntimes } from "./sqlite-runtimes.js";

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
  /** For the workspace: the Node.js versions it runs SQL on, and how. */
  sqlite?: SqliteRuntimes;
}

const CLI_ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const cliRequire = createRequire(join(CLI_ROOT, "package.json"));
/** The workspace server's SQLite child process, a file of its own in @mcpkit/servers. */
const queryProcessFile = () =>
  join(dirname(cliRequire.resolve("@mcpkit/servers/package.json")), "dist/workspace/sqlite/query-process.js");
/** The table of built-in servers `serve` picks from; a bundle's holds its own server alone. */
const CATALOG = join(CLI_ROOT, "dist/built-in/catalog.js");

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
  const workspace = source.kind === "built-in" && source.name === "workspace";
  const sqlite = workspace ? sqliteRuntimes(packageDir("better-sqlite3", cliRequire)) : undefined;
  const native = sqlite?.keepBetterSqlite ? Object.keys(NATIVE) : [];
  const plugins: import("esbuild").Plugin[] = [];
  /** Packages a built-in server imports that are not installed. */
  const unresolved = new Set<string>();
  if (source.kind === "module") {
    stdin = { contents: moduleStub(source.file), resolveDir: dirname(source.file) };
  } else {
    stdin = { contents: builtInStub(source.name, source.args), resolveDir: CLI_ROOT };
    // The CLI reads its version from the package.json above its files.
    const { version } = JSON.parse(readFileSync(join(CLI_ROOT, "package.json"), "utf8")) as { version: string };
    writeFileSync(join(root, "package.json"), `${JSON.stringify({ name: "mcpkit-bundle", version, private: true })}\n`);
    // The workspace runs each SQL statement in a child process of this file (sqlite/engine.ts).
    if (workspace) entries["query-process"] = queryProcessFile();
    plugins.push(oneServer(source.name), notFound(unresolved));
  }
  const common: import("esbuild").BuildOptions = {
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    // The workspace's better-sqlite3 is copied in when it serves a Node.js node:sqlite does
    // not, and stays a runtime import either way: absent, the workspace says why it has no SQL.
    external: [...NEVER, ...(workspace ? Object.keys(NATIVE) : [])],
    banner: { js: REQUIRE },
    logLevel: "silent",
  };
  try {
    await esbuild.build({
      ...common,
      stdin: { ...stdin, sourcefile: "mcpkit-bundle-entry.js", loader: "js" },
      outfile: join(outdir, "index.js"),
      legalComments: "none",
      plugins,
    });
    const [missing] = unresolved;
    if (source.kind === "built-in" && missing) throw missingPeer(source.name, missing);
    if (Object.keys(entries).length > 0) await esbuild.build({ ...common, entryPoints: entries, outdir });
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const errors = (error as { errors?: import("esbuild").Message[] }).errors;
    if (!errors) throw error;
    const missing = source.kind === "built-in" ? unresolvedPackage(errors) : undefined;
    if (source.kind === "built-in" && missing) throw missingPeer(source.name, missing);
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
  return { entry: "server/index.js", native: native.length > 0, included, ...(sqlite && { sqlite }) };
}

/**
 * Serves `name` alone: the bundle's table of built-in servers holds that one, so the others'
 * code and packages (the GitHub server's @octokit/rest, an optional peer) stay out of it.
 */
function oneServer(name: string): import("esbuild").Plugin {
  return {
    name: "mcpkit-one-built-in-server",
    setup(build) {
      build.onLoad({ filter: /[\\/]built-in[\\/]catalog\.js$/ }, (args) =>
        args.path === CATALOG
          ? {
              loader: "js",
              resolveDir: dirname(CATALOG),
              contents: `export const SERVERS = { ${JSON.stringify(name)}: () => import(${JSON.stringify(`./${name}.js`)}) };
export const SERVER_NAMES = Object.keys(SERVERS);
export async function serverFlags(name) {
  const load = SERVERS[name];
  return load ? (await load()).flags : undefined;
}
`,
            }
          : undefined,
      );
    },
  };
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

/** Runs mcpkit serve NAME --stdio with the given flags, and those the client adds: the serve command alone. */
function builtInStub(name: string, args: string[]): string {
  const argv = JSON.stringify(["serve", name, "--stdio", ...args]);
  return `import { serveBundled } from ${JSON.stringify(join(CLI_ROOT, "dist/commands/bundle/bundled-entry.js"))};
await serveBundled(${argv});
`;
}

/**
 * Notes each package that cannot be found. esbuild leaves an import the code guards
 * (try/catch) unresolved without a word, to fail at run time: for a built-in server, that
 * is an optional peer the person bundling must install (the GitHub server's @octokit/rest).
 */
function notFound(into: Set<string>): import("esbuild").Plugin {
  const again = Symbol("resolving again");
  return {
    name: "mcpkit-packages-not-found",
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, async (args) => {
        if (args.pluginData === again) return undefined;
        const { resolveDir, kind, importer } = args;
        const found = await build.resolve(args.path, { resolveDir, kind, importer, pluginData: again });
        const name = unresolvedPackage(found.errors);
        if (name) into.add(name);
        return undefined;
      });
    },
  };
}

/** The first package (a bare name, not a path) esbuild could not find, in its messages. */
function unresolvedPackage(messages: readonly import("esbuild").Message[]): string | undefined {
  for (const message of messages) {
    const name = /^Could not resolve "((?:@[^/"]+\/)?[^/".][^/"]*)/.exec(message.text)?.[1];
    if (name && !name.startsWith("node:")) return name;
  }
  return undefined;
}

const missingPeer = (server: string, name: string) =>
  new UsageError(
    `bundle ${server} needs the ${name} package, which is not installed: ${installAdvice(name)}; then bundle again`,
  );

/** The folder of an installed package, or undefined when it is not installed. */
function packageDir(name: string, from: NodeJS.Require): string | undefined {
  try {
    return dirname(from.resolve(`${name}/package.json`));
  } catch {
    return undefined;
  }
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
