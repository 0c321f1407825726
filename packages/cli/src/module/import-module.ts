import { extname } from "node:path";
import { pathToFileURL } from "node:url";
import { UsageError } from "../commands/usage-error.js";

/** The extensions of a module mcpkit loads: JavaScript as Node runs it, TypeScript through tsx. */
export const MODULE_EXTENSIONS = [".js", ".mjs", ".cjs", ".ts", ".mts", ".cts"];

const isTypeScript = (path: string) => [".ts", ".mts", ".cts"].includes(extname(path));

/**
 * Imports a user's module by its absolute path. TypeScript is loaded with tsx (an optional
 * dependency of @mcpkit/cli, loaded only here), which also maps `./x.js` imports to the
 * `./x.ts` beside them, as tsc's NodeNext resolution expects. `onImport` is told each file
 * the module loads, for a watcher.
 */
export async function importModule(path: string, onImport?: (file: string) => void): Promise<unknown> {
  const url = pathToFileURL(path).href;
  if (!isTypeScript(path)) return import(url);
  let tsx: typeof import("tsx/esm/api");
  try {
    tsx = await import("tsx/esm/api");
  } catch {
    throw new UsageError(
      `${path} is TypeScript, which mcpkit loads with tsx: install it beside @mcpkit/cli (npm install --save-dev tsx), or build the module and give the .js file`,
    );
  }
  return tsx.tsImport(url, {
    parentURL: import.meta.url,
    ...(onImport && { onImport: (imported: string) => imported.startsWith("file:") && onImport(imported) }),
  });
}
