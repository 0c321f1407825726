import type { Middleware, MiddlewareContext } from "../connection/middleware-chain.js";
import { McpError } from "../jsonrpc/errors.js";

/**
 * Turns failures of the chain after it into protocol errors: `map` gets what was thrown
 * and returns the McpError to answer with, or undefined to let it through unchanged (an
 * error that is not an McpError is then answered -32603 "Internal error" and reported to
 * onError, as without middleware). What `map` itself throws is answered as if thrown by
 * the handler.
 */
export function mapErrors<C extends MiddlewareContext = MiddlewareContext>(
  map: (error: unknown, ctx: C) => McpError | undefined,
): Middleware<C> {
  return async (ctx, next) => {
    try {
      return await next();
    } catch (error) {
      const mapped = map(error, ctx);
      throw mapped instanceof McpError ? mapped : error;
    }
  };
}
