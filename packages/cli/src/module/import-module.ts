import { rmSync } from "node:fs";
import { extname } from "node:path";
import { pathToFileURL } from "node:url";
import { createCompiler } from "./compile.js";

/** The extensions of a module mcpkit loads: JavaScript as Node runs it, TypeScript compiled by esbuild. */
export const MODULE_EXTENSIONS = [".js", ".mjs", ".cjs", ".ts", ".mts", ".cts"];

export const isTypeScript = (path: string) => [".ts", ".mts", ".cts"].includes(extname(path));

/**
 * Imports a user's module by its absolute path: JavaScript as it is, TypeScript compiled
 * first (compile.ts), the compiled file removed once loaded.
 */
export async function importModule(path: string): Promise<unknown> {
  if (!isTypeScript(path)) return import(pathToFileURL(path).href);
  const compiler = await createCompiler(path);
  try {
    const { file } = await compiler.build();
    try {
      return await import(pathToFileURL(file).href);
    } finally {
      rmSync(file, { force: true });
    }
  } finally {
    await compiler.dispose();
  }
}
