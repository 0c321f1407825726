import { AsyncLocalStorage } from "node:async_hooks";

/**
 * The downstream request being served, for code that runs on its behalf deep in the
 * proxy's call (opening a session's upstream connection, computing a request's headers):
 * the gateway's middleware runs each request inside `caller.run`.
 */
export interface Caller {
  /** The verified token of the request (mcpkit/auth's AuthInfo), undefined without sign-in. */
  readonly auth: unknown;
}

export const caller = new AsyncLocalStorage<Caller>();
