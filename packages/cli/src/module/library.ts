import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { pathToFileURL } from "node:url";
import * as ownHttp from "mcpkit/http";
import { McpServer } from "mcpkit/server";
import * as ownStdio from "mcpkit/stdio";

/** What serving a server takes from the copy of mcpkit that made it. */
export interface ServingLibrary {
  http: Pick<typeof ownHttp, "createStreamableHttpHandler" | "createSseHandler" | "serverCardHandler">;
  stdio: Pick<typeof ownStdio, "stdioServerTransport">;
}

const OWN: ServingLibrary = { http: ownHttp, stdio: ownStdio };
const foreign = new WeakMap<object, ServingLibrary>();

/**
 * The copy of mcpkit to serve `server` with: the one that made it. A module run by a global
 * mcpkit in a project with its own mcpkit makes its server with the project's copy, whose
 * private state the CLI's copy cannot reach ("Cannot read private member #definition"):
 * that copy's endpoints serve it, so one library handles it whichever copy loads.
 */
export const servingLibrary = (server: object): ServingLibrary => foreign.get(server) ?? OWN;

/** The version of a copy of mcpkit, from the package.json beside its entry points. */
function versionAt(require: NodeJS.Require): { version: string; root: string } {
  const manifest = require.resolve("mcpkit/package.json");
  return {
    version: (JSON.parse(readFileSync(manifest, "utf8")) as { version: string }).version,
    root: dirname(manifest),
  };
}

const own = versionAt(createRequire(import.meta.url));

/**
 * Finds the copy of mcpkit a module's server was made with, when it is not the CLI's: the
 * `mcpkit` the module's folder resolves. Says so plainly when its version differs from the
 * CLI's. Throws when the server is of no copy that can be found (it cannot be served).
 */
export async function adoptLibrary(server: object, module: string, warn: (line: string) => void): Promise<void> {
  if (server instanceof McpServer) return;
  const require = createRequire(module);
  let theirs: { version: string; root: string };
  let library: ServingLibrary & { McpServer: unknown };
  try {
    theirs = versionAt(require);
    const load = (entry: string) => import(pathToFileURL(require.resolve(entry)).href);
    const [server, http, stdio] = await Promise.all([load("mcpkit/server"), load("mcpkit/http"), load("mcpkit/stdio")]);
    library = { McpServer: server.McpServer, http, stdio };
  } catch {
    throw new Error(
      `${module} exports a server made by another copy of mcpkit than this command's (${own.root}), and none can be found from its folder to serve it: install mcpkit in the module's project`,
    );
  }
  if (!(server instanceof (library.McpServer as typeof McpServer)))
    throw new Error(
      `${module} exports a server made by a copy of mcpkit that is neither this command's (${own.root}) nor its project's (${theirs.root}): export the server the module's own mcpkit makes`,
    );
  foreign.set(server, library);
  if (theirs.version !== own.version)
    warn(
      `mcpkit: note: ${module} uses mcpkit ${theirs.version} (${theirs.root}); this mcpkit command is ${own.version}. ` +
        `The server is served by its own copy, ${theirs.version}, within this command's ${own.version} (the HTTP listener, sign-in, limits). ` +
        `If something misbehaves, run the project's own command (npx mcpkit) or install @mcpkit/cli ${theirs.version}`,
    );
}
