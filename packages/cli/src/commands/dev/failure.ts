import { ErrorCode, McpError } from "mcpkit";
import type { ServerMiddleware } from "mcpkit/server";
import { CompileError } from "../../module/compile.js";
import { LoadFailure } from "./generation.js";

/** What a client asks of the module: answered with why while no version of it serves. */
const FEATURE_METHOD = /^(tools|prompts|resources|completion)\//;

/** The longest failure told to a client. */
const MAX_CHARS = 500;

/**
 * The one line that says why the module did not load, for a client: `mcpkit serve`'s own
 * summary (`mcpkit: src/server.ts threw while loading, at src/settings.ts:3:21: Error: …`),
 * else the first line the compiler or the process said. Stack frames never go to a client.
 */
export function failureLine(module: string, error: unknown): string {
  const detail = error instanceof LoadFailure || error instanceof CompileError ? error.message : String(error);
  const lines = detail
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("at "));
  const summary = lines.findLast((line) => line.startsWith("mcpkit: "));
  const line = summary ? summary.slice("mcpkit: ".length) : `${module} did not load: ${lines[0] ?? "no reason given"}`;
  return line.length > MAX_CHARS ? `${line.slice(0, MAX_CHARS)}…` : line;
}

/**
 * While no version of the module serves (the first never loaded, or its process stopped),
 * a client's lists, calls and reads are answered with an error that says why (the file
 * and line of a load failure), not with an empty server that looks healthy; a client that
 * completes the handshake meanwhile is told in a log message too. `failure()` says why, or
 * nothing once a version serves.
 */
export function failingWhileUnloaded(failure: () => string | undefined): ServerMiddleware {
  return async (ctx, next) => {
    const why = ctx.direction === "inbound" ? failure() : undefined;
    if (why === undefined) return next();
    if (ctx.kind === "request" && FEATURE_METHOD.test(ctx.method))
      throw new McpError(ErrorCode.InternalError, `${why}; fix it and save: it loads again on the next change`);
    const result = await next();
    if (ctx.method === "notifications/initialized") ctx.session?.log("error", why, "mcpkit dev");
    return result;
  };
}
