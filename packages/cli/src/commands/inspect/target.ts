import { parseEnv, parseHeaders } from "@mcpkit/servers/options";
import type { Target } from "../../inspector/index.js";
import { UsageError } from "../usage-error.js";

/**
 * Looks up a named server (`mcpkit inspect NAME`) in the user's MCP configuration; throws
 * a UsageError that lists the names known when there is none of that name (named.ts).
 */
export type NamedServerResolver = (name: string) => Promise<Target> | Target;

export interface TargetFlags {
  header?: string[];
  env?: string[];
}

/**
 * The server from the command line: `URL`, `-- COMMAND [ARGS…]`, or `NAME` through
 * `resolveName`. `argv` is the raw command line (commander drops the `--`, and with it
 * where the command starts). A named server's headers and variables come first; those
 * of the command line win.
 */
export async function targetFromCommandLine(
  words: string[],
  argv: readonly string[],
  flags: TargetFlags,
  resolveName: NamedServerResolver,
  /** The mcpkit command in use, which a usage error's advice names. */
  command = "inspect",
): Promise<Target> {
  const dash = argv.indexOf("--");
  const dashed = dash === -1 ? 0 : argv.length - dash - 1;
  const before = words.slice(0, words.length - dashed);
  const after = words.slice(words.length - dashed);
  if (dashed > 0) {
    if (before.length > 0) throw new UsageError(`Give either a server before -- or a command after it, not both`);
    const [program, ...args] = after as [string, ...string[]];
    return withFlags({ kind: "stdio", command: program, args, env: {} }, flags);
  }
  const [word, ...extra] = before;
  if (word === undefined)
    throw new UsageError(
      "Name a server: a URL (http://…/mcp), after -- the command that starts it, or a name from your MCP configuration (mcpkit servers lists them)",
    );
  if (extra.length > 0) {
    const left = `One server at a time: "${extra.join(" ")}" is left over`;
    // `mcpkit lint node server.js`: a command, given without the -- that says where it starts.
    throw new UsageError(
      /^https?:\/\//i.test(word)
        ? left
        : `${left}; to start a server over stdio, put its command after -- (mcpkit ${command} -- ${before.join(" ")})`,
    );
  }
  if (/^https?:\/\//i.test(word)) {
    let url: URL;
    try {
      url = new URL(word);
    } catch {
      throw new UsageError(`"${word}" is not a valid URL`);
    }
    return withFlags({ kind: "http", url: url.href, headers: {} }, flags);
  }
  return withFlags(await resolveName(word), flags);
}

/** --header belongs to an HTTP server, --env to a stdio one; each adds to (and overrides) the target's own. */
function withFlags(target: Target, flags: TargetFlags): Target {
  if (target.kind === "stdio") {
    if (flags.header?.length) throw new UsageError("--header is for HTTP servers (a URL), not for a command");
    return { ...target, env: { ...target.env, ...parseEnv(flags.env ?? []) } };
  }
  if (flags.env?.length) throw new UsageError("--env is for a stdio server (a command after --), not for a URL");
  return { ...target, headers: { ...target.headers, ...parseHeaders(flags.header ?? []) } };
}
