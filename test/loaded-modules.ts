import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * What a process loaded, module by module. Run it with `--import RECORD_IMPORTS` and
 * IMPORT_LOG set; `loadedModules(IMPORT_LOG's text)` then names every file it imported,
 * relative to the repository. mcpkit's JavaScript is bundled (scripts/bundle.mjs): a
 * bundle or chunk is replaced by the source modules whose code it holds, read from its
 * source map, so `packages/mcpkit/src/server/tasks/run.ts` is listed when the code of that
 * module was loaded, whichever file carried it.
 */

export const REPO = fileURLToPath(new URL("..", import.meta.url));
export const RECORD_IMPORTS = join(REPO, "test/cli/fixtures/record-imports.mjs");
const MCPKIT_DIST = join(REPO, "packages/mcpkit/dist/");

/** The source modules a bundle of mcpkit's holds, relative to the repository. */
function sourcesOf(file: string): string[] {
  const map = `${file}.map`;
  if (!existsSync(map)) return [relative(REPO, file)];
  const { sources } = JSON.parse(readFileSync(map, "utf8")) as { sources: string[] };
  return sources.map((source) => relative(REPO, resolve(dirname(file), source)));
}

/** Every module the log records (sorted, each once), mcpkit's bundles as their sources. */
export function loadedModules(log: string): string[] {
  const modules = new Set<string>();
  for (const url of log.split("\n")) {
    if (!url.startsWith("file:")) continue;
    const file = fileURLToPath(url);
    for (const module of file.startsWith(MCPKIT_DIST) ? sourcesOf(file) : [relative(REPO, file)]) modules.add(module);
  }
  return [...modules].sort();
}

/** The packages a list of modules came from (`ajv`, `@scope/name`), sorted, each once. */
export function packagesOf(modules: string[]): string[] {
  const names = modules.flatMap((module) => /.*node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(module)?.[1] ?? []);
  return [...new Set(names)].sort();
}
