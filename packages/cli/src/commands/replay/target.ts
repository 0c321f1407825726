import type { CommandTarget, UrlTarget } from "mcpkit/testing";
import type { Target } from "../../inspector/target.js";
import { namedTarget } from "../inspect/named.js";
import { type TargetFlags, targetFromCommandLine } from "../inspect/target.js";
import { UsageError } from "../usage-error.js";

/** The flags that name and reach a server, as `call` and `inspect` take them. */
export interface ServerFlags extends TargetFlags {
  /** --config FILE: where a NAME is looked up (otherwise the files `mcpkit servers` reads). */
  config?: string;
}

/**
 * The server a command line names, as `mcpkit inspect` reads it (its code): `URL`, `NAME`
 * from an MCP configuration file (config/resolve.ts), or `-- COMMAND [ARGS…]`; a named server's
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

/** A NAME as `mcpkit inspect` reads it; its advice names the command in use. */
function named(command: string, name: string, config: string | undefined): Target {
  try {
    return namedTarget(name, config);
  } catch (error) {
    if (error instanceof UsageError)
      throw new UsageError(error.message.replaceAll("mcpkit inspect", `mcpkit ${command}`));
    throw error;
  }
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
