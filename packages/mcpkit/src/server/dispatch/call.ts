import type { JsonObject } from "../../jsonrpc/types.js";
import type { ServerCapabilities } from "../../protocol/types/capabilities.js";
import type { InboundRequest } from "../../session/inbound.js";
import type { Registry } from "../registry/registry.js";
import type { ClientPeer } from "./peer.js";
import type { RequestContext } from "./request-context.js";

/** One request being dispatched: the definition, the client, and the request itself. */
export interface Call {
  readonly server: Registry;
  readonly peer: ClientPeer;
  readonly inbound: InboundRequest;
  /** The handler-facing context, made on first use. */
  context(): RequestContext;
}

/** An entry of the method table: dispatch through a table whose entries carry flags. */
export interface MethodEntry {
  handler(params: JsonObject, call: Call): JsonObject | Promise<JsonObject>;
  /** The server capability that must have been declared for the method to exist. */
  capability?: (caps: ServerCapabilities) => unknown;
}

export type MethodTable = Record<string, MethodEntry>;
