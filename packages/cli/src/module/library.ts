import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { pathToFileURL } from "node:url";
import { McpServer } from "mcpkit/server";

type Http = typeof import("mcpkit/http");
type Stdio = typeof import("mcpkit/stdio");

/** What serving a server takes from the copy of mcpkit that made it. */
export interface ServingLibrary {
  http: Pick<Http, "createStreamableHttpHandler" | "createSseHandler" | "serverCardHandler">;
  stdio: Pick<Stdio, "stdioServerTransport">;
}

const foreign = new WeakMap<
  object,
  { http: () => Promise<ServingLibrary["http"]>; stdio: () => Promise<ServingLibrary["stdio"]> }
>();

/**
 * The HTTP endpoints of the copy of mcpkit to serve `server` with: the one that made it. A module run by a global
 * mcpkit in a project with its own mcpkit makes its server with the project's copy, whose
 * private state the CLI's copy cannot reach ("Cannot read private member #definition"):
 * that copy's endpoints serve it, so one library handles it whichever copy loads.
 */
export const servingHttp = (server: object): Promise<ServingLibrary["http"]> =>
  foreign.get(server)?.http() ?? import("mcpkit/http");

/** The stdio transport of the copy that made `server` (only what serving over stdio needs is loaded). */
export const servingStdio = (server: object): Promise<ServingLibrary["stdio"]> =>
  foreign.get(server)?.stdio() ?? import("mcpkit/stdio");

/** The version of a copy of mcpkit, from the package.json beside its entry points. */
function versionAt(require: NodeJS.Require): { version: string; root: string } {
  const manifest = require.resolve("mcpkit/package.json");
  return {
    version: (JSON.parse(readFileSync(manifest, "utf8")) as { version: string }).version,
    root: dirname(manifest),
  };
}

/** This command's own copy: read only when another copy made a server (a bundle carries no package.json of it). */
const ownCopy = () => versionAt(createRequire(import.meta.url));

/**
 * Finds the copy of mcpkit a module's server was made with, when it is not the CLI's: the
 * `mcpkit` the module's folder resolves. Says so plainly when its version differs from the
 * CLI's. Throws when the server is of no copy that can be found (it cannot be served).
 */
export async function adoptLibrary(server: object, module: string, warn: (line: string) => void): Promise<void> {
  if (server instanceof McpServer) return;
  const own = ownCopy();
  const require = createRequire(module);
  let theirs: { version: string; root: string };
  let theirServer: unknown;
  const load = (entry: string) => import(pathToFileURL(require.resolve(entry)).href);
  try {
    theirs = versionAt(require);
    theirServer = (await load("mcpkit/server")).McpServer;
    // Resolved now, loaded when serving needs them.
    require.resolve("mcpkit/http");
    require.resolve("mcpkit/stdio");
  } catch {
    throw new Error(
      `${module} exports a server made by another copy of mcpkit than this command's (${own.root}), and none can be found from its folder to serve it: install mcpkit in the module's project`,
    );
  }
  if (!(server instanceof (theirServer as typeof McpServer)))
    throw new Error(
      `${module} exports a server made by a copy of mcpkit that is neither this command's (${own.root}) nor its project's (${theirs.root}): export the server the module's own mcpkit makes`,
    );
  foreign.set(server, { http: () => load("mcpkit/http"), stdio: () => load("mcpkit/stdio") });
  if (theirs.version !== own.version)
    warn(
      `mcpkit: note: ${module} uses mcpkit ${theirs.version} (${theirs.root}); this mcpkit command is ${own.version}. ` +
        `The server is served by its own copy, ${theirs.version}, within this command's ${own.version} (the HTTP listener, sign-in, limits). ` +
        `If something misbehaves, run the project's own command (npx mcpkit) or install @mcpkit/cli ${theirs.version}`,
    );
}
