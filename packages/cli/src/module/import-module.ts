import { rmSync } from "node:fs";
import { extname } from "node:path";
import { pathToFileURL } from "node:url";
import { createCompiler } from "./compile.js";
import { moduleLoadError, whereThrown } from "./load-error.js";

/** The extensions of a module mcpkit loads: JavaScript as Node runs it, TypeScript compiled by esbuild. */
export const MODULE_EXTENSIONS = [".js", ".mjs", ".cjs", ".ts", ".mts", ".cts"];

export const isTypeScript = (path: string) => [".ts", ".mts", ".cts"].includes(extname(path));

/**
 * Imports a user's module by its absolute path: JavaScript as it is, TypeScript compiled
 * first (compile.ts), the compiled file removed once loaded. A throw as it loads is reported
 * with the file and line it came from (load-error.ts).
 */
export async function importModule(path: string): Promise<unknown> {
  if (!isTypeScript(path)) return importReporting(pathToFileURL(path).href, path);
  const compiler = await createCompiler(path);
  try {
    const { file } = await compiler.build();
    // The compiled file's inline source map turns its stack back into the TypeScript's lines.
    process.setSourceMapsEnabled(true);
    try {
      return await importReporting(pathToFileURL(file).href, path);
    } finally {
      rmSync(file, { force: true });
    }
  } finally {
    await compiler.dispose();
  }
}

/** Imports `url`; what it throws comes back as a ModuleLoadError naming `module` and where. */
async function importReporting(url: string, module: string): Promise<unknown> {
  try {
    return await import(url);
  } catch (error) {
    // Node 20 keeps a syntax error's place off its stack: esbuild's parser says it.
    const at =
      error instanceof SyntaxError && !whereThrown(error.stack ?? "") ? await syntaxErrorAt(module) : undefined;
    throw moduleLoadError(error, module, undefined, at);
  }
}

/** Where esbuild finds a syntax error in the module or the files of the user's it imports. */
async function syntaxErrorAt(module: string): Promise<string | undefined> {
  try {
    const esbuild = await import("esbuild");
    await esbuild.build({
      entryPoints: [module],
      bundle: true,
      packages: "external",
      write: false,
      logLevel: "silent",
    });
  } catch (error) {
    const location = (error as { errors?: { location?: { file: string; line: number; column: number } | null }[] })
      .errors?.[0]?.location;
    if (location) return `${location.file}:${location.line}:${location.column + 1}`;
  }
  return undefined;
}
