import { existsSync, statSync } from "node:fs";
import { extname, resolve } from "node:path";
import type { McpServer, ServerOptions } from "mcpkit/server";
import { UsageError } from "../commands/usage-error.js";
import { importModule, MODULE_EXTENSIONS } from "./import-module.js";
import { adoptLibrary } from "./library.js";
import { moduleLoadError } from "./load-error.js";

/** Whether a `serve` operand is a module (a path) rather than a built-in server's name. */
export const isModulePath = (word: string) =>
  MODULE_EXTENSIONS.includes(extname(word)) || word.includes("/") || word.includes("\\");

/** What the module's default export may be given: the pieces a cluster's nodes share. */
export type ModuleOptions = Pick<ServerOptions, "eventBus" | "requestStateKey" | "tasks">;

/** An McpServer, recognised by its shape: the module may load its own copy of mcpkit. */
function isServer(value: unknown): value is McpServer {
  const server = value as Partial<McpServer> | null;
  return (
    typeof server === "object" &&
    server !== null &&
    typeof server.connect === "function" &&
    typeof server.tool === "function" &&
    typeof server.info?.name === "string"
  );
}

/**
 * Loads the server a user's module exports (docs/workflow.md, "Your server as a module"):
 * its default export is an McpServer, or a function, sync or async, that makes one from
 * the options it is given (spread them into createServer). `export const server` works
 * too. Throws an error that says what the module should export.
 */
export async function loadServerModule(file: string, options: ModuleOptions = {}): Promise<McpServer> {
  const path = resolve(file);
  if (!existsSync(path) || !statSync(path).isFile())
    throw new UsageError(`No such file: ${file} (serve takes a built-in server's name or your server module's path)`);
  const module = (await importModule(path)) as Record<string, unknown>;
  // A CommonJS module's exports arrive as `default`, possibly wrapped once more.
  const exported = module.default ?? module.server;
  const unwrapped =
    isServer(exported) || typeof exported === "function" ? exported : (exported as { default?: unknown })?.default;
  let made: unknown;
  try {
    made = typeof unwrapped === "function" && !isServer(unwrapped) ? await unwrapped(options) : unwrapped;
  } catch (error) {
    throw moduleLoadError(error, path, "threw as its default export made the server");
  }
  if (isServer(made)) {
    await adoptLibrary(made, path, (line) => process.stderr.write(`${line}\n`));
    return made;
  }
  throw new UsageError(
    `${file} must export its server: \`export default server\` (an McpServer) or ` +
      "`export default (options) => createServer({ name, version, ...options })`; " +
      `its default export is ${describe(exported)}`,
  );
}

function describe(value: unknown): string {
  if (value === undefined) return "missing";
  if (value === null) return "null";
  if (typeof value === "function") return "a function that returned something else";
  if (typeof value === "object") return `an object with ${Object.keys(value).slice(0, 5).join(", ") || "no keys"}`;
  return `a ${typeof value}`;
}
