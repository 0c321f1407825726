import type { DoctorTarget } from "../doctor/index.js";
import { UsageError } from "./usage-error.js";

export interface ServerTargetOptions {
  header?: string[];
  env?: string[];
  /** --config FILE: where a named server is looked up. */
  config?: string;
}

/**
 * The one server a command names, as `mcpkit inspect` reads it (commands/inspect/target.ts
 * and named.ts, config/resolve.ts beneath): `URL`, `NAME` from an MCP configuration file,
 * or `-- COMMAND [ARGS…]`; --header and --env add to it. `argv` is the raw command line.
 */
export async function serverTarget(
  words: string[],
  argv: readonly string[],
  options: ServerTargetOptions,
  command: string,
): Promise<DoctorTarget> {
  const [{ targetFromCommandLine }, { namedTarget }] = await Promise.all([
    import("./inspect/target.js"),
    import("./inspect/named.js"),
  ]);
  return targetFromCommandLine(words, argv, options, (name) => {
    try {
      return namedTarget(name, options.config);
    } catch (error) {
      // Its advice names inspect's command line; this command's is the same but for its name.
      if (error instanceof UsageError)
        throw new UsageError(error.message.replace("(mcpkit inspect -- ", `(mcpkit ${command} -- `));
      throw error;
    }
  });
}
