import { existsSync, mkdirSync, readFileSync, realpathSync } from "node:fs";
import { basename, dirname, extname, join } from "node:path";
import { pathToFileURL } from "node:url";
import type { BuildContext, Plugin } from "esbuild";
import { UsageError } from "../commands/usage-error.js";

/** A module compiled to JavaScript, and the files of the user's it was made from. */
export interface Compiled {
  file: string;
  inputs: string[];
}

/** Compiles a module again and again (mcpkit dev): esbuild's incremental rebuild. */
export interface Compiler {
  build(): Promise<Compiled>;
  dispose(): Promise<void>;
}

/** The error esbuild throws when the code does not compile: its message lists file:line: ERROR. */
export class CompileError extends Error {
  override name = "CompileError";
}

let outputs = 0;

/**
 * Compiles a TypeScript module (and the files of yours it imports) into one JavaScript file
 * with esbuild, an optional dependency of @mcpkit/cli loaded only here. Packages stay
 * imports, resolved by Node from the output's place: node_modules/.cache/mcpkit under the
 * module's nearest node_modules, so they are the module's own. Each file keeps its own
 * `import.meta.url`, so reading a file beside the source still finds it; an inline source
 * map points stack traces at the TypeScript (node --enable-source-maps).
 */
export async function createCompiler(entry: string): Promise<Compiler> {
  let esbuild: typeof import("esbuild");
  try {
    esbuild = await import("esbuild");
  } catch {
    throw new UsageError(
      `${entry} is TypeScript, which mcpkit compiles with esbuild: install it beside @mcpkit/cli (npm install --save-dev esbuild), or build the module and give the .js file`,
    );
  }
  // Its real path: Node loads the file by it and resolves the source map's relative paths from
  // there (a node_modules that is a link would send them elsewhere).
  const outDir = realpathSync(cacheDir(dirname(entry)));
  const outfile = join(outDir, `${basename(entry, extname(entry))}-${process.pid}-${++outputs}.mjs`);
  const context: BuildContext = await esbuild.context({
    entryPoints: [entry],
    outfile,
    bundle: true,
    packages: "external",
    platform: "node",
    format: "esm",
    target: `node${process.versions.node.split(".")[0]}`,
    sourcemap: "inline",
    metafile: true,
    logLevel: "silent",
    plugins: [ownImportMeta],
  });
  return {
    async build() {
      try {
        const result = await context.rebuild();
        const inputs = Object.keys(result.metafile?.inputs ?? {}).map((input) => join(process.cwd(), input));
        return { file: outfile, inputs };
      } catch (error) {
        const messages = (
          error as { errors?: { text: string; location?: { file: string; line: number; column: number } | null }[] }
        ).errors;
        if (!messages) throw error;
        throw new CompileError(
          messages
            .map((m) => (m.location ? `${m.location.file}:${m.location.line}:${m.location.column}: ${m.text}` : m.text))
            .join("\n"),
        );
      }
    },
    dispose: () => context.dispose(),
  };
}

/** node_modules/.cache/mcpkit in the nearest node_modules above `dir` (else .mcpkit beside it). */
function cacheDir(dir: string): string {
  for (let at = dir; ; at = dirname(at)) {
    if (existsSync(join(at, "node_modules"))) {
      const cache = join(at, "node_modules", ".cache", "mcpkit");
      mkdirSync(cache, { recursive: true });
      return cache;
    }
    if (dirname(at) === at) break;
  }
  const beside = join(dir, ".mcpkit");
  mkdirSync(beside, { recursive: true });
  return beside;
}

const LOADERS: Record<string, "ts" | "js"> = {
  ".ts": "ts",
  ".mts": "ts",
  ".cts": "ts",
  ".js": "js",
  ".mjs": "js",
  ".cjs": "js",
};

/** Each of the user's files keeps its own import.meta.url, dirname and filename. */
const ownImportMeta: Plugin = {
  name: "mcpkit-own-import-meta",
  setup(build) {
    build.onLoad({ filter: /\.[cm]?[jt]s$/ }, (args) => {
      if (/[\\/]node_modules[\\/]/.test(args.path)) return undefined;
      const source = readFileSync(args.path, "utf8");
      const values: Record<string, string> = {
        url: pathToFileURL(args.path).href,
        dirname: dirname(args.path),
        filename: args.path,
      };
      return {
        contents: source.replace(/\bimport\.meta\.(url|dirname|filename)\b/g, (_m, key: string) =>
          JSON.stringify(values[key]),
        ),
        loader: LOADERS[extname(args.path)] ?? "ts",
      };
    });
  },
};
