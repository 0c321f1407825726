import type { CallOptions } from "../client/eras/client-era.js";
import { McpError } from "../jsonrpc/errors.js";
import { META } from "../protocol/meta.js";
import { ClientRequestError } from "../server/dispatch/request-context.js";
import type { Context } from "../server/handler-context.js";

/** How one downstream request travels upstream, and how the upstream's questions come back. */

/**
 * Where each URL-mode elicitation was asked, so the upstream's
 * notifications/elicitation/complete reaches the same client. The newest 1000 are kept.
 */
export class UrlElicitations {
  private readonly asked = new Map<string, (elicitationId: string) => void>();

  remember(elicitationId: string, complete: (elicitationId: string) => void): void {
    this.asked.set(elicitationId, complete);
    if (this.asked.size > 1000) this.asked.delete(this.asked.keys().next().value as string);
  }

  complete(elicitationId: string): void {
    this.asked.get(elicitationId)?.(elicitationId);
    this.asked.delete(elicitationId);
  }
}

/** The options of an upstream request made for `ctx`: its cancellation, progress and trace context. */
export function forwardOptions(ctx: Context): CallOptions {
  const trace = Object.keys(ctx.trace).length > 0 ? ctx.trace : undefined;
  const { sampling, elicitation, roots } = ctx.client.capabilities;
  return {
    signal: ctx.signal,
    // A modern upstream asks only for what the caller can answer (legacy ones learned it at initialize).
    capabilities: {
      ...(sampling && { sampling }),
      ...(elicitation && { elicitation }),
      ...(roots && { roots: {} }),
    },
    ...(ctx.meta?.progressToken !== undefined && {
      onprogress: (p) => ctx.progress(p.progress, p.total, p.message),
    }),
    ...(trace && { meta: trace }),
  };
}

/**
 * A result without what the upstream server said about itself as a 2026-07-28 server
 * (resultType, caching hints, its serverInfo): this server says its own, in its own era.
 */
export function ownFieldsOnly<T>(result: T): T {
  if (typeof result !== "object" || result === null) return result;
  const { resultType: _r, ttlMs: _t, cacheScope: _c, ...rest } = result as Record<string, unknown>;
  const meta = rest._meta as Record<string, unknown> | undefined;
  if (meta && META.serverInfo in meta) {
    const { [META.serverInfo]: _s, ...others } = meta;
    if (Object.keys(others).length > 0) rest._meta = others;
    else delete rest._meta;
  }
  return rest as T;
}

/** Asks the downstream caller of `ctx`; its refusal is the upstream's answer. */
export async function askCaller<T>(ctx: Context, question: (ctx: Context) => Promise<T>): Promise<T> {
  try {
    return await question(ctx);
  } catch (error) {
    if (error instanceof ClientRequestError) throw new McpError(error.code, error.message, error.data);
    throw error;
  }
}
