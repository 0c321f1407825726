import type { CommandTarget, UrlTarget } from "mcpkit/testing";
import { findServer, ServerNotFound } from "../../config/index.js";
import type { Target } from "../../inspector/target.js";
import { type TargetFlags, targetFromCommandLine } from "../inspect/target.js";
import { UsageError } from "../usage-error.js";

/** The flags that name and reach a server, as `call` and `inspect` take them. */
export interface ServerFlags extends TargetFlags {
  /** --config FILE: where a NAME is looked up (otherwise the files `mcpkit servers` reads). */
  config?: string;
}

/**
 * The server a command line names, as `mcpkit inspect` reads it: `URL`, `NAME` from an
 * MCP configuration file (config/resolve.ts), or `-- COMMAND [ARGS…]`; a named server's
 * headers and variables first, the command line's winning. `argv` is the raw command line
 * (commander drops the `--`).
 */
export function serverFromCommandLine(
  command: string,
  words: string[],
  argv: readonly string[],
  flags: ServerFlags,
): Promise<Target> {
  return targetFromCommandLine(words, argv, flags, (name) => named(command, name, flags.config));
}

function named(command: string, name: string, config: string | undefined): Target {
  let found: ReturnType<typeof findServer>;
  try {
    found = findServer(name, config === undefined ? {} : { config });
  } catch (error) {
    if (error instanceof ServerNotFound)
      throw new UsageError(
        `"${name}" is not a URL; to start a server over stdio, put its command after -- (mcpkit ${command} … -- ${name} …). ${error.message}`,
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

/** The target as mcpkit/testing takes it. */
export function libraryTarget(target: Target): CommandTarget | UrlTarget {
  if (target.kind === "http") return { url: target.url, headers: target.headers };
  return {
    command: target.command,
    args: target.args,
    env: target.env,
    ...(target.cwd !== undefined && { cwd: target.cwd }),
  };
}

/** The values given for the server that are secrets: its variables and headers. */
export function secretsOf(target: Target): string[] {
  return Object.values(target.kind === "http" ? target.headers : target.env);
}
