import type { JsonObject, RequestId } from "../jsonrpc/types.js";

/**
 * What every middleware sees, on either side: one incoming or outgoing request or
 * notification. `params` may be replaced before calling `next` to rewrite the message.
 */
export interface MiddlewareContext {
  /** "request" expects a result; a notification's `next` resolves to `{}` and its result is ignored. */
  readonly kind: "request" | "notification";
  /** "inbound": the peer sent it to us; "outbound": we send it to the peer. */
  readonly direction: "inbound" | "outbound";
  readonly method: string;
  /** The message's params; replace them (never mutate the caller's object) to rewrite the message. */
  params: JsonObject | undefined;
  /** The JSON-RPC id of an inbound request; undefined for notifications and outbound calls. */
  readonly id: RequestId | undefined;
  /** Who is calling, when a transport verified it (the server's `ctx.auth`); undefined on the client. */
  readonly principal: unknown;
  /** "legacy" (the initialize handshake) or "modern" (2026-07-28); undefined before it is known. */
  readonly era: "legacy" | "modern" | undefined;
  /** The protocol revision the message is exchanged under, once known. */
  readonly revision: string | undefined;
  /** The session id (legacy era on HTTP), if any. */
  readonly sessionId: string | undefined;
}

/** Runs the rest of the chain (the next middleware, then the handler) with the context's current params. */
export type Next = () => Promise<JsonObject>;

/**
 * Wraps the handling of a message: call `next()` to go on (and see or change its result),
 * throw to fail it, or return a result without calling `next` to answer in its place. The
 * result is any JSON-shaped object (a typed one such as CallToolResult needs no cast).
 */
export type Middleware<C extends MiddlewareContext = MiddlewareContext> = (
  ctx: C,
  next: Next,
) => object | Promise<object>;

/**
 * Runs `ctx` through `chain` in order, then `terminal`. Only called when a chain is
 * installed: without one, callers go straight to their handler and allocate nothing.
 */
export function runChain<C extends MiddlewareContext>(
  chain: readonly Middleware<C>[],
  ctx: C,
  terminal: (ctx: C) => object | Promise<object>,
): Promise<JsonObject> {
  const step = (index: number): Promise<JsonObject> => {
    let called = false;
    const next: Next = () => {
      // A middleware that calls next twice would run the handler twice: refuse it.
      if (called) return Promise.reject(new Error(`Middleware ${index} called next() more than once`));
      called = true;
      return step(index + 1);
    };
    try {
      const middleware = chain[index];
      const outcome = middleware === undefined ? terminal(ctx) : middleware(ctx, next);
      // The handler's typed result is JSON to the middleware around it (jsonrpc's asJson).
      return Promise.resolve(outcome) as Promise<JsonObject>;
    } catch (error) {
      return Promise.reject(error);
    }
  };
  return step(0);
}
