import { clientKey, principalOf } from "../connection/client-key.js";
import type { Middleware, MiddlewareContext } from "../connection/middleware-chain.js";
import { McpError } from "../jsonrpc/errors.js";

/**
 * The error code of a refused request. MCP defines none for rate limiting; JSON-RPC 2.0
 * §5.1 leaves -32000…-32099 to implementations, and mcpkit uses -32000 and -32001 already.
 */
export const RATE_LIMITED = -32029;

export interface RateLimitOptions<C extends MiddlewareContext> {
  /** Requests a principal may make per second, on average. */
  perSecond: number;
  /** How many may come at once after a quiet spell (the bucket's size; default: perSecond, at least 1). */
  burst?: number;
  /**
   * Whose bucket a message draws from. Default (`principalKey`): the principal as the
   * server sees it (the token's issuer with its subject, else with its client id:
   * `principalOf`), else the client's address (an IPv6 one by its /64), else the session
   * id, else one bucket for the rest. Not the session first: opening another session must
   * not refill the bucket.
   */
  key?: (ctx: C) => string;
  /**
   * Messages that never count (default: notifications, initialize, server/discover and
   * ping, and the requests a server sends its client: the call that made them was counted).
   */
  exempt?: (ctx: C) => boolean;
  /** Buckets kept at most; the least recently used go first (default 10 000). */
  maxKeys?: number;
  /** The clock, ms (tests). */
  now?: () => number;
}

interface Bucket {
  tokens: number;
  at: number;
}

/** What connecting and staying connected takes is never refused. */
const CONNECTING = new Set(["initialize", "server/discover", "ping"]);
/** A server's requests to its client (sampling, elicitation, roots): its caller's call was counted. */
const askedByServer = (ctx: MiddlewareContext) =>
  ctx.direction === "outbound" && (ctx as { side?: string }).side === "server";
const defaultExempt = (ctx: MiddlewareContext) =>
  ctx.kind === "notification" || CONNECTING.has(ctx.method) || askedByServer(ctx);

/**
 * The default key: who the token says (issuer and subject: two issuers' same `sub` are two
 * callers), else where the request came from (HTTP), else the session (stdio and in-memory
 * connections: one client each), else everyone together. The same key session caps and
 * task bounds count under (connection/client-key.ts).
 */
export function principalKey(ctx: MiddlewareContext & { remoteAddress?: string | undefined }): string {
  const caller = clientKey(principalOf(ctx.principal), ctx.remoteAddress);
  if (caller !== undefined) return caller;
  if (ctx.sessionId !== undefined) return `session:${ctx.sessionId}`;
  return "anonymous";
}

/**
 * A token bucket per caller: each request takes a token, tokens come back at
 * `perSecond`, and a request finding the bucket empty is refused with RATE_LIMITED,
 * saying when to retry (`data.retryAfterMs`).
 */
export function rateLimit<C extends MiddlewareContext = MiddlewareContext>(
  options: RateLimitOptions<C>,
): Middleware<C> {
  const { perSecond } = options;
  if (!(perSecond > 0)) throw new RangeError("rateLimit: perSecond must be a positive number");
  const burst = options.burst ?? Math.max(1, perSecond);
  if (!(burst >= 1)) throw new RangeError("rateLimit: burst must be at least 1");
  const keyOf = options.key ?? principalKey;
  const exempt = options.exempt ?? defaultExempt;
  const maxKeys = options.maxKeys ?? 10_000;
  const now = options.now ?? Date.now;
  const buckets = new Map<string, Bucket>();

  return (ctx, next) => {
    if (exempt(ctx)) return next();
    const key = keyOf(ctx);
    const t = now();
    let bucket = buckets.get(key);
    if (bucket === undefined) {
      bucket = { tokens: burst, at: t };
      if (buckets.size >= maxKeys) buckets.delete(buckets.keys().next().value as string);
    } else {
      bucket.tokens = Math.min(burst, bucket.tokens + ((t - bucket.at) / 1000) * perSecond);
      bucket.at = t;
      buckets.delete(key); // re-inserted below: the map's order is least recently used first
    }
    buckets.set(key, bucket);
    if (bucket.tokens < 1) {
      const retryAfterMs = Math.ceil(((1 - bucket.tokens) / perSecond) * 1000);
      throw new McpError(
        RATE_LIMITED,
        `Rate limit exceeded: ${ctx.method} refused; at most ${perSecond} requests per second (bursts of ${burst}) are allowed per caller. Retry after ${retryAfterMs} ms.`,
        { reason: "rate-limited", retryAfterMs, limit: perSecond, burst },
      );
    }
    bucket.tokens -= 1;
    return next();
  };
}
