import { isAbsolute, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";

/** A user's module threw as it loaded (or as its default export made the server): where, and what. */
export class ModuleLoadError extends Error {
  override name = "ModuleLoadError";
}

/** This installation's own files: a frame in them is mcpkit's, not the user's. */
const OWN = fileURLToPath(new URL("../", import.meta.url));

/**
 * The error a module's load is reported with: the module, the file and line the error came
 * from (a TypeScript module's line, once source maps map its stack), and the error itself.
 * `"undefined" is not valid JSON` alone says nothing of where.
 */
export function moduleLoadError(
  error: unknown,
  module: string,
  doing = "threw while loading",
  /** Where it was thrown, when the stack cannot say (a syntax error, found by a parser). */
  known?: string,
): ModuleLoadError {
  const shown = shownPath(module);
  if (!(error instanceof Error))
    return new ModuleLoadError(`${shown} ${doing}: ${String(error)} (not an Error, so no stack says where)`);
  const at = known ?? whereThrown(error.stack ?? "");
  const what = error.message.startsWith(error.name) ? error.message : `${error.name}: ${error.message}`;
  return new ModuleLoadError(`${shown} ${doing}${at ? `, at ${at}` : ""}: ${what}`);
}

/**
 * Where in the user's code a stack says the error was thrown: its first frame in a file
 * that is neither Node's nor a package's nor mcpkit's own (else its first frame in any
 * file), as path:line:column relative to the current folder. A syntax error Node reports
 * before running the file names it on the stack's first line instead (file:///x.mjs:2).
 */
export function whereThrown(stack: string): string | undefined {
  const first = /^(file:\/\/\S+?|\/\S+?):(\d+)$/m.exec(stack.split("\n")[0] ?? "");
  if (first) return `${shownPath(pathOf(first[1] as string))}:${first[2]}`;
  const frames = [...stack.matchAll(/^\s+at (?:.*? \()?((?:file:\/\/|\/|[A-Za-z]:\\)[^()\s]*?):(\d+):(\d+)\)?$/gm)].map(
    ([, file, line, column]) => ({ path: pathOf(file as string), line, column }),
  );
  const theirs = (path: string) => !path.includes(`${sep}node_modules${sep}`) && !path.startsWith(OWN);
  const frame = frames.find((f) => theirs(f.path)) ?? frames[0];
  return frame && `${shownPath(frame.path)}:${frame.line}:${frame.column}`;
}

const pathOf = (file: string) => (file.startsWith("file://") ? fileURLToPath(file) : file);

/** A path relative to the current folder when it is inside it. */
function shownPath(path: string): string {
  const shown = relative(process.cwd(), path);
  return shown === "" || shown.startsWith("..") || isAbsolute(shown) ? path : shown;
}
