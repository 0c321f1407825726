// @ts-check
// Client middleware: every call carries a correlation id in its `_meta`, and calls that
// fail are reported with it. docs/middleware.md quotes this file.
import { randomUUID } from "node:crypto";

/**
 * @param {(line: string) => void} report
 * @returns {import("mcpkit/client").ClientMiddleware}
 */
export function correlate(report) {
  return async (ctx, next) => {
    if (ctx.direction !== "outbound") return next();
    const id = randomUUID();
    // Replace the options (never mutate the caller's): `meta` keys go into params._meta.
    ctx.options = { ...ctx.options, meta: { ...ctx.options?.meta, "example.com/correlation-id": id } };
    try {
      return await next();
    } catch (error) {
      report(`${ctx.method} failed (correlation id ${id}): ${error instanceof Error ? error.message : error}`);
      throw error;
    }
  };
}
