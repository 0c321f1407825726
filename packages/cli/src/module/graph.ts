import { resolve } from "node:path";

/** The files of the user's that a module imports, itself included: what a change to should reload it. */
export interface ModuleGraph {
  /** The files as the module stands now; undefined when it does not build (a syntax error, a missing import). */
  files(): Promise<string[] | undefined>;
  dispose(): Promise<void>;
}

/**
 * A JavaScript module's import graph, as esbuild resolves it (the TypeScript compiler's
 * metafile gives the same for a .ts module: compile.ts). Packages are left out: only the
 * user's own files count. Undefined when esbuild is not installed.
 */
export async function moduleGraph(entry: string): Promise<ModuleGraph | undefined> {
  let esbuild: typeof import("esbuild");
  try {
    esbuild = await import("esbuild");
  } catch {
    return undefined;
  }
  const cwd = process.cwd();
  const context = await esbuild.context({
    entryPoints: [entry],
    bundle: true,
    packages: "external",
    platform: "node",
    format: "esm",
    write: false,
    outdir: "graph",
    metafile: true,
    logLevel: "silent",
    absWorkingDir: cwd,
  });
  return {
    async files() {
      try {
        const result = await context.rebuild();
        return Object.keys(result.metafile?.inputs ?? {}).map((input) => resolve(cwd, input));
      } catch {
        return undefined;
      }
    },
    dispose: () => context.dispose(),
  };
}
