import type { Middleware, MiddlewareContext } from "../connection/middleware-chain.js";
import type { JsonObject } from "../jsonrpc/types.js";

/** One message handled: what it was, how long it took and how it ended. */
export interface TimingEntry<C extends MiddlewareContext = MiddlewareContext> {
  readonly ctx: C;
  readonly durationMs: number;
  /** "tool-error": a tools/call result with `isError` (the call worked, the tool failed). */
  readonly outcome: "ok" | "tool-error" | "error";
  readonly error?: unknown;
}

/** Measures every message the chain after it handles and reports it, whichever way it ends. */
export function timing<C extends MiddlewareContext = MiddlewareContext>(
  report: (entry: TimingEntry<C>) => void,
): Middleware<C> {
  return async (ctx, next) => {
    const start = performance.now();
    let result: JsonObject;
    try {
      result = await next();
    } catch (error) {
      report({ ctx, durationMs: performance.now() - start, outcome: "error", error });
      throw error;
    }
    report({ ctx, durationMs: performance.now() - start, outcome: result.isError === true ? "tool-error" : "ok" });
    return result;
  };
}

export interface LoggingOptions {
  /** Where each line goes (default: stderr, which stdio servers keep free of protocol traffic). */
  write?: (line: string) => void;
  /** Leave notifications out (default false). */
  requestsOnly?: boolean;
}

const errorText = (error: unknown) => {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return typeof code === "number" ? `${code} ${error.message}` : error.message;
  }
  return String(error);
};

/** One line per message: direction, method (and tool name), duration, outcome. */
export function logging<C extends MiddlewareContext = MiddlewareContext>(options: LoggingOptions = {}): Middleware<C> {
  // console.error is stderr on Node, Deno and Bun, and the log on Workers.
  const write = options.write ?? ((line: string) => console.error(line));
  const report = timing<C>(({ ctx, durationMs, outcome, error }) => {
    const name = typeof ctx.params?.name === "string" ? ` ${ctx.params.name}` : "";
    const arrow = ctx.direction === "inbound" ? "<-" : "->";
    const how = outcome === "error" ? `error: ${errorText(error)}` : outcome;
    write(`mcp ${arrow} ${ctx.method}${name} ${durationMs.toFixed(1)}ms ${how}`);
  });
  return (ctx, next) => (options.requestsOnly && ctx.kind === "notification" ? next() : report(ctx, next));
}
