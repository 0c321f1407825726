import type { Target } from "../../inspector/index.js";
import { UsageError } from "../usage-error.js";

/**
 * Looks up a named server (`mcpkit inspect NAME`) in the user's MCP configuration. None is
 * wired yet: the named-server configuration plugs in here, returning undefined for a name it
 * does not know.
 */
export type NamedServerResolver = (name: string) => Promise<Target | undefined>;

export interface TargetFlags {
  header?: string[];
  env?: string[];
}

/**
 * The server from the command line: `URL`, `-- COMMAND [ARGS…]`, or `NAME` through
 * `resolveName`. `argv` is the raw command line (commander drops the `--`, and with it
 * where the command starts).
 */
export async function targetFromCommandLine(
  words: string[],
  argv: readonly string[],
  flags: TargetFlags,
  resolveName?: NamedServerResolver,
): Promise<Target> {
  const dash = argv.indexOf("--");
  const dashed = dash === -1 ? 0 : argv.length - dash - 1;
  const before = words.slice(0, words.length - dashed);
  const after = words.slice(words.length - dashed);
  if (dashed > 0) {
    if (before.length > 0) throw new UsageError(`Give either a server before -- or a command after it, not both`);
    const [command, ...args] = after as [string, ...string[]];
    if (flags.header?.length) throw new UsageError("--header is for HTTP servers (a URL), not for a command");
    return { kind: "stdio", command, args, env: parseEnv(flags.env ?? []) };
  }
  const [word, ...extra] = before;
  if (word === undefined)
    throw new UsageError("Name a server: a URL (http://…/mcp) or, after --, the command that starts it");
  if (extra.length > 0) throw new UsageError(`One server at a time: "${extra.join(" ")}" is left over`);
  if (/^https?:\/\//i.test(word)) {
    let url: URL;
    try {
      url = new URL(word);
    } catch {
      throw new UsageError(`"${word}" is not a valid URL`);
    }
    if (flags.env?.length) throw new UsageError("--env is for a stdio server (a command after --), not for a URL");
    return { kind: "http", url: url.href, headers: parseHeaders(flags.header ?? []) };
  }
  const named = await resolveName?.(word);
  if (named) return named;
  throw new UsageError(
    `"${word}" is not a URL; to start a server over stdio, put its command after -- (mcpkit inspect -- ${word} …)`,
  );
}

function parseHeaders(values: string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const value of values) {
    const colon = value.indexOf(":");
    if (colon <= 0) throw new UsageError(`--header takes "Name: value", not "${value}"`);
    headers[value.slice(0, colon).trim()] = value.slice(colon + 1).trim();
  }
  return headers;
}

/** `-e KEY=VALUE` sets a variable; `-e KEY` passes this process's value on. */
function parseEnv(values: string[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const value of values) {
    const eq = value.indexOf("=");
    if (eq === 0) throw new UsageError(`--env takes KEY=VALUE or KEY, not "${value}"`);
    if (eq > 0) env[value.slice(0, eq)] = value.slice(eq + 1);
    else if (process.env[value] !== undefined) env[value] = process.env[value] as string;
  }
  return env;
}
