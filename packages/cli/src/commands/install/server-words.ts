import { existsSync, readFileSync } from "node:fs";
import { basename, dirname, extname, isAbsolute, join, resolve } from "node:path";
import { SERVER_NAMES } from "../../built-in/catalog.js";
import type { ServerSpec } from "../../config/index.js";
import { UsageError } from "../usage-error.js";

/** A server module mcpkit serve loads (a default-exported server). */
const MODULE = new Set([".js", ".mjs", ".cjs", ".ts", ".mts", ".cts"]);

/** The server the words after `--` describe, and the name it suggests for itself. */
export interface Described {
  spec: ServerSpec;
  name?: string;
}

export interface DescribeOptions {
  cwd: string;
  env: Record<string, string>;
  headers: Record<string, string>;
  /** The command that runs mcpkit (self.ts). */
  mcpkit: readonly string[];
}

/**
 * Reads the words after `--`:
 *
 *   URL                          a server over Streamable HTTP
 *   SERVER [FLAGS…]              a built-in server: mcpkit serve SERVER --stdio FLAGS…
 *   ./module.js|.ts [FLAGS…]     your server module: mcpkit serve MODULE --stdio FLAGS…
 *   COMMAND [ARGS…]              any command that speaks MCP on stdio
 *
 * A first word ending like a module (.js, .ts…) must name a file. A client starts a
 * server from its own folder, so a relative path among the words (an existing file or
 * folder, or one written ./x) is made absolute.
 */
export function describeServer(words: string[], options: DescribeOptions): Described {
  const [first, ...rest] = words;
  if (first === undefined)
    throw new UsageError("Give the server after --: a URL, a built-in server, your module, or a command");
  if (/^https?:\/\//i.test(first)) {
    if (rest.length > 0) throw new UsageError(`A URL takes no further words (got "${rest.join(" ")}")`);
    if (Object.keys(options.env).length > 0)
      throw new UsageError("--env is for a server started by a command, not a URL");
    let url: URL;
    try {
      url = new URL(first);
    } catch {
      throw new UsageError(`"${first}" is not a valid URL`);
    }
    return { spec: { transport: "http", url: url.href, headers: options.headers } };
  }
  if (Object.keys(options.headers).length > 0) throw new UsageError("--header is for a server at a URL");
  const absolute = (word: string) => absolutePath(word, options.cwd);
  const [command, ...prefix] = options.mcpkit as [string, ...string[]];
  const stdio = (args: string[]): ServerSpec => ({ transport: "stdio", command, args, env: options.env });
  if (SERVER_NAMES.includes(first))
    return { spec: stdio([...prefix, "serve", first, "--stdio", ...rest.map(absolute)]), name: first };
  if (MODULE.has(extname(first))) {
    const module = resolve(options.cwd, first);
    // A mistyped module path would otherwise be written as a command no client can start.
    if (!existsSync(module))
      throw new UsageError(
        `No such module: ${first} (${module}); give your server module's path, such as src/server.ts`,
      );
    return {
      spec: stdio([...prefix, "serve", module, "--stdio", ...rest.map(absolute)]),
      name: packageName(dirname(module)) ?? basename(module, extname(module)),
    };
  }
  const name = packageName(options.cwd);
  return {
    spec: { transport: "stdio", command: absolute(first), args: rest.map(absolute), env: options.env },
    ...(name !== undefined && { name }),
  };
}

/** A word that names an existing file or folder here (or is written ./x, ../x), as an absolute path. */
function absolutePath(word: string, cwd: string): string {
  if (word.startsWith("-") || isAbsolute(word) || /^[a-z][a-z0-9+.-]*:/i.test(word)) return word;
  const explicit = word === "." || word === ".." || /^\.\.?[\\/]/.test(word);
  return explicit || (/[\\/.]/.test(word) && existsSync(resolve(cwd, word))) ? resolve(cwd, word) : word;
}

/** The `name` of the package.json in `dir` or above it, without its @scope/. */
function packageName(dir: string): string | undefined {
  for (let at = resolve(dir); ; at = dirname(at)) {
    const file = join(at, "package.json");
    if (existsSync(file)) {
      try {
        const name = (JSON.parse(readFileSync(file, "utf8")) as { name?: unknown }).name;
        return typeof name === "string" && name !== "" ? name.replace(/^@[^/]+\//, "") : undefined;
      } catch {
        return undefined;
      }
    }
    if (dirname(at) === at) return undefined;
  }
}
