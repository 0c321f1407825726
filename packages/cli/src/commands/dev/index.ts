import { existsSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import { Command, Option } from "commander";
import { isModulePath } from "../../module/server-module.js";
import { serveHttp } from "../serve/http.js";
import { portNumber } from "../serve/limits.js";
import { serveStdio } from "../serve/stdio.js";
import { COMMAND_SUMMARIES } from "../summaries.js";
import { USAGE_EXIT, UsageError } from "../usage-error.js";
import { DevHost } from "./host.js";
import { openInspector } from "./inspector.js";
import { reloadsFor } from "./reload-filter.js";
import { RELOAD_LIMIT, reloadLimit } from "./reload-limit.js";
import { watchFiles } from "./watch.js";

/**
 * Where `mcpkit dev` serves unless told: not 3000, which a project's own `npm start` (the
 * HTTP templates, PORT's default) and `mcpkit serve --port 3000` take.
 */
export const DEV_PORT = 3100;

interface DevOptions {
  port?: string;
  host: string;
  stdio?: boolean;
  watch?: string[];
  inspect?: boolean;
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

export function devCommand(): Command {
  return new Command("dev")
    .description(COMMAND_SUMMARIES.dev.description)
    .argument("<module>", "your server module (./server.ts or .js): its default export, as mcpkit serve takes it")
    .addOption(
      new Option(
        "--port <port>",
        `serve Streamable HTTP on http://HOST:PORT/mcp (default ${DEV_PORT}, or a free port when it is taken)`,
      ),
    )
    .addOption(new Option("--host <host>", "the address to bind").default("127.0.0.1"))
    .addOption(new Option("--stdio", "speak MCP on stdin/stdout instead, for a client that starts mcpkit dev"))
    .option("--watch <path>", "a folder or file to watch besides the module's folder (repeatable)", collect)
    .option("--inspect", "start the web inspector beside it, connected to it (its URL on stdout)")
    .addHelpText(
      "after",
      `
Each version of the module runs in a child process of its own (mcpkit serve MODULE --stdio);
a change to a file the module imports (its own import graph, packages aside) or under a
--watch path starts the next one, and once it has loaded its tools, resources and prompts
replace the last one's: clients get list_changed. What else changes beside it (a log the
server writes) reloads nothing. A version that does not load is reported, and the last one
that loaded keeps serving. More than 20 reloads in 10 s stop the reloading, saying why.

Examples:
  $ mcpkit dev src/server.ts
  $ mcpkit dev src/server.ts --port 8080 --watch ../shared
  {"mcpServers": {"mine": {"command": "npx", "args": ["mcpkit", "dev", "/abs/src/server.ts", "--stdio"]}}}
`,
    )
    .exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : USAGE_EXIT))
    .action(async (module: string, options: DevOptions) => {
      if (!isModulePath(module) || !existsSync(module))
        throw new UsageError(`No such module: ${module} (give your server module's path, such as src/server.ts)`);
      const port = options.stdio ? undefined : options.port === undefined ? DEV_PORT : portNumber(options.port);
      if (options.stdio && options.inspect) throw new UsageError("--inspect needs HTTP: leave out --stdio");
      await dev(resolve(module), port, options);
    });
}

async function dev(module: string, port: number | undefined, options: DevOptions): Promise<void> {
  const log = {
    info: (line: string) => process.stderr.write(`${line}\n`),
    passthrough: (text: string) => process.stderr.write(text),
  };
  const dirs = [dirname(module), ...(options.watch ?? []).map((path) => resolve(path))];
  for (const dir of dirs) if (!existsSync(dir)) throw new UsageError(`--watch ${dir}: no such file or folder`);
  const shown = relative(process.cwd(), module) || module;
  const host = await DevHost.start(module, shown, log);
  const limit = reloadLimit();
  const stopWatching = watchFiles(
    dirs,
    (files) => {
      const names = files.map((file) => relative(process.cwd(), file) || file);
      const changed = `${names.slice(0, 3).join(", ")}${names.length > 3 ? ` and ${names.length - 3} more` : ""}`;
      if (!limit.record()) {
        stopWatching();
        log.info(
          `mcpkit dev: more than ${RELOAD_LIMIT.max} reloads in ${RELOAD_LIMIT.windowMs / 1000} s (the last for ${changed}): ` +
            "something keeps changing the files it watches. Reloading is stopped and the last version that loaded keeps serving; " +
            "fix what writes them and start mcpkit dev again",
        );
        return;
      }
      void host.reload(`${changed} changed`);
    },
    {
      counts: reloadsFor(
        host.imports,
        (options.watch ?? []).map((path) => resolve(path)),
      ),
      onTooMany: (root, max) =>
        log.info(
          `mcpkit dev: ${relative(process.cwd(), root) || root} holds more than ${max} folders: only ${max} are watched, ` +
            "and a change in the others does not reload. Give the module a folder of its own, or name the folders that matter with --watch",
        ),
    },
  );
  let closeInspector: (() => Promise<void>) | undefined;
  try {
    if (port === undefined) await serveStdio(host.server, "dev");
    else {
      const serve = (at: number) =>
        serveHttp(host.server, {
          port: at,
          host: options.host,
          onListening: async (url) => {
            if (options.inspect) closeInspector = await openInspector(url);
          },
        });
      try {
        await serve(port);
      } catch (error) {
        // The default port taken (another mcpkit dev): a free one, said with the URL it serves on.
        if (options.port !== undefined || !String((error as Error).message).startsWith(`Port ${port} `)) throw error;
        log.info(`mcpkit dev: port ${port} is in use: serving on a free port instead (--port chooses one)`);
        await serve(0);
      }
    }
  } finally {
    stopWatching();
    await closeInspector?.();
    await host.close();
  }
}
