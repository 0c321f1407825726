import { findServer, ServerNotFound } from "../../config/index.js";
import type { Target } from "../../inspector/index.js";
import { UsageError } from "../usage-error.js";

/**
 * `mcpkit <command> NAME`: the server a configuration file names (config/resolve.ts says
 * which files, in which order; `--config FILE` reads that one only), as a target. A stdio
 * server starts in its project's folder, as the client that reads the file starts it; an
 * HTTP entry keeps its headers (an `sse` entry is a URL too: the client falls back to
 * HTTP+SSE by itself). `command` is the mcpkit command asking, which the advice names.
 */
export function namedTarget(name: string, options: { command: string; config?: string | undefined }): Target {
  let found: ReturnType<typeof findServer>;
  try {
    found = findServer(name, options.config === undefined ? {} : { config: options.config });
  } catch (error) {
    // Most often a URL or a command was meant: say how to give those first, then the names known.
    if (error instanceof ServerNotFound)
      throw new UsageError(
        `"${name}" is not a URL; to start a server over stdio, put its command after -- (mcpkit ${options.command} -- ${name} …). ${error.message}`,
      );
    throw error;
  }
  const { spec } = found;
  if (spec.transport === "stdio")
    return {
      kind: "stdio",
      command: spec.command,
      args: spec.args,
      env: spec.env,
      ...(spec.cwd !== undefined && { cwd: spec.cwd }),
    };
  return { kind: "http", url: spec.url, headers: spec.headers };
}
