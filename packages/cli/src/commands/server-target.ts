import type { Target } from "../inspector/target.js";
import type { TargetFlags } from "./inspect/target.js";

export interface ServerTargetOptions extends TargetFlags {
  /** --config FILE: where a named server is looked up (otherwise the files `mcpkit servers` reads). */
  config?: string;
}

/** The server a command line names, and the name it was given by when it came from a configuration file. */
export interface ResolvedServer {
  target: Target;
  name?: string;
}

/**
 * The one server a command names (inspect, doctor, lint, snapshot, record, replay):
 * `URL`, `NAME` from an MCP configuration file, or `-- COMMAND [ARGS…]`; --header and
 * --env add to it (commands/inspect/target.ts and named.ts, config/resolve.ts beneath).
 * `argv` is the raw command line; `command` is the mcpkit command, which a usage error's
 * advice names.
 */
export async function resolveServer(
  words: string[],
  argv: readonly string[],
  options: ServerTargetOptions,
  command: string,
): Promise<ResolvedServer> {
  const [{ targetFromCommandLine }, { namedTarget }] = await Promise.all([
    import("./inspect/target.js"),
    import("./inspect/named.js"),
  ]);
  let name: string | undefined;
  const target = await targetFromCommandLine(
    words,
    argv,
    options,
    (word) => {
      name = word;
      return namedTarget(word, { command, config: options.config });
    },
    command,
  );
  return { target, ...(name !== undefined && { name }) };
}

/** The target alone (see resolveServer). */
export async function serverTarget(
  words: string[],
  argv: readonly string[],
  options: ServerTargetOptions,
  command: string,
): Promise<Target> {
  return (await resolveServer(words, argv, options, command)).target;
}
