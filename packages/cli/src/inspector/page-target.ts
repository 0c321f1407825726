import { OpError } from "./op-error.js";
import type { Target } from "./target.js";

/** What the command line allowed: its own server, and the programs of --allow-spawn. */
export interface SpawnPolicy {
  given: Target;
  allowSpawn: readonly string[];
}

/** Headers the client sets itself (the protocol's, the body's framing, the connection's): never the page's. */
const RESERVED =
  /^(host|content-length|content-type|connection|keep-alive|transfer-encoding|te|trailer|upgrade|accept|mcp-.*|last-event-id)$/i;
/** An HTTP header name (RFC 9110 §5.1, a token). */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** The page's headers, checked: names as HTTP spells them, values on one line, none the client owns. */
export function checkHeaders(headers: Record<string, unknown>): Record<string, string> {
  const checked: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!TOKEN.test(name)) throw new OpError(`"${name}" is not a header name`);
    if (RESERVED.test(name)) throw new OpError(`${name} is set by the inspector's client, not by hand`);
    if (typeof value !== "string" || /[\r\n\0]/.test(value))
      throw new OpError(`The value of ${name} must be text on one line`);
    checked[name] = value.trim();
  }
  return checked;
}

/**
 * The stdio server the page asks for. The command line's own (the same command and
 * arguments) starts as given, with its variables and folder; any other only when its
 * program is one --allow-spawn names, exactly as named there (`node` allows `node`, not
 * `/tmp/x/node`), with no variable of the command line's (they were given for its server):
 * the inspector's minimal environment only. The page never sets variables (ops/connection.ts
 * refuses a request that tries).
 */
export function stdioTarget(request: { command: string; args: string[] }, policy: SpawnPolicy): Target {
  const { args } = request;
  if (args.some((arg) => arg.includes("\0"))) throw new OpError("An argument may not hold a NUL character");
  const { given, allowSpawn } = policy;
  const cwd = given.kind === "stdio" ? given.cwd : undefined;
  if (given.kind === "stdio" && given.command === request.command && given.args.join("\0") === args.join("\0"))
    return given;
  if (!allowSpawn.includes(request.command))
    throw new OpError(
      allowSpawn.length === 0
        ? "Starting another command from the page needs mcpkit inspect --allow-spawn PROGRAM,…"
        : `The page may start ${allowSpawn.join(", ")} (mcpkit inspect --allow-spawn), not ${JSON.stringify(request.command)}`,
    );
  return { kind: "stdio", command: request.command, args, env: {}, ...(cwd && { cwd }) };
}

/** The URL the page asks for: http or https only. */
export function httpUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new OpError(`"${url}" is not a URL`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new OpError("The URL must be http: or https:");
  if (parsed.username || parsed.password)
    throw new OpError("Give credentials as a header or a bearer token, not in the URL");
  return parsed.href;
}
