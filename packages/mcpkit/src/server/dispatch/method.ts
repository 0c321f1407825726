import type { InboundRequest } from "../../connection/inbound-request.js";
import type { JsonObject } from "../../jsonrpc/types.js";
import type { ServerCapabilities } from "../../protocol/types/capabilities.js";
import type { ServerResults } from "../../protocol/types/server-results.js";
import type { Registry } from "../registry/registry.js";
import type { ClientPeer } from "./client-peer.js";
import type { RequestContext } from "./request-context.js";

/** One request being dispatched: the definition, the client, and the request itself. */
export interface Call {
  readonly server: Registry;
  readonly peer: ClientPeer;
  readonly inbound: InboundRequest;
  /** The handler-facing context, made on first use. */
  context(): RequestContext;
}

/**
 * An entry of the method table, its result type `R` bound once: the capability the
 * method needs, and `run`, which reads the params and calls the handler (see method()).
 */
export interface Method<R extends object = object> {
  /** The server capability that must have been declared for the method to exist. */
  readonly capability?: (caps: ServerCapabilities) => unknown;
  /** Reads the params as the wire gives them (malformed: -32602) and runs the handler. */
  readonly run: (params: JsonObject, call: Call) => R | Promise<R>;
}

/**
 * What an entry declares: its params type `P` (what `params` reads) and its result type
 * `R`. `params` reads the params the handler receives from the JSON the client sent,
 * throwing -32602 for what the method cannot do without; it may be left out only where
 * the handler takes the params as sent.
 */
export type MethodSpec<P, R extends object> = {
  readonly capability?: (caps: ServerCapabilities) => unknown;
  readonly handler: (params: P, call: Call) => R | Promise<R>;
} & (JsonObject extends P
  ? { readonly params?: (params: JsonObject, call: Call) => P }
  : { readonly params: (params: JsonObject, call: Call) => P });

/**
 * Binds a method's params and result types once (go-sdk's method infos are the model):
 * the handler receives what `params` read, and returns `R`. Without a reader the handler
 * itself is the entry's `run`: nothing is added to the call.
 */
export function method<R extends object, P = JsonObject>(spec: MethodSpec<P, R>): Method<R> {
  const { capability, params: read, handler } = spec;
  const run: Method<R>["run"] = read
    ? (params, call) => handler(read(params, call), call)
    : (handler as Method<R>["run"]);
  return capability ? { capability, run } : { run };
}

/** The server's methods outside the lifecycle, each with the result its specification gives. */
export type MethodTable = { readonly [M in keyof ServerResults]: Method<ServerResults[M]> };

/** A family's part of the table (server/tools, server/resources…). */
export type Methods<M extends keyof ServerResults> = Pick<MethodTable, M>;
