import { ErrorCode, McpError, methodNotFound } from "../../jsonrpc/errors.js";
import type { JsonObject } from "../../jsonrpc/types.js";
import type { InboundRequest } from "../../session/inbound.js";
import type { Registry } from "../registry/registry.js";
import type { Call, MethodTable } from "./call.js";
import { completionMethods } from "./handlers/completion.js";
import { discoverMethods } from "./handlers/discover.js";
import { loggingMethods } from "./handlers/logging.js";
import { promptMethods } from "./handlers/prompts.js";
import { resourceMethods } from "./handlers/resources.js";
import { skillMethods } from "./handlers/skills.js";
import { subscriptionMethods } from "./handlers/subscriptions.js";
import { taskMethods } from "./handlers/tasks.js";
import { toolMethods } from "./handlers/tools.js";
import type { ClientPeer } from "./peer.js";
import { RequestContext } from "./request-context.js";

/** Every server method outside the lifecycle; a revision's table says which exist. */
export const serverMethods: MethodTable = {
  ping: { handler: () => ({}) },
  ...toolMethods,
  ...resourceMethods,
  ...promptMethods,
  ...completionMethods,
  ...loggingMethods,
  ...discoverMethods,
  ...subscriptionMethods,
  ...skillMethods,
  ...taskMethods,
};

class ServerCall implements Call {
  readonly server: Registry;
  readonly peer: ClientPeer;
  readonly inbound: InboundRequest;
  private ctx: RequestContext | undefined;

  constructor(server: Registry, peer: ClientPeer, inbound: InboundRequest) {
    this.server = server;
    this.peer = peer;
    this.inbound = inbound;
  }

  context(): RequestContext {
    this.ctx ??= new RequestContext(this.peer, this.inbound, this.server);
    return this.ctx;
  }
}

/**
 * Runs one request through the table: unknown to the revision or not backed by a
 * declared capability is -32601 (basic/lifecycle §Capability Negotiation).
 */
export function dispatch(
  server: Registry,
  peer: ClientPeer,
  inbound: InboundRequest,
  params: JsonObject | undefined = inbound.params,
): JsonObject | Promise<JsonObject> {
  const method = inbound.method;
  // The revision's set is checked first, so names like "constructor" never reach the table.
  const entry = peer.rules.methods.has(method) ? serverMethods[method] : undefined;
  if (entry === undefined) {
    throw methodNotFound(method);
  }
  if (entry.capability && !entry.capability(peer.serverCapabilities)) {
    throw new McpError(
      ErrorCode.MethodNotFound,
      `Method not found: ${method} (this server did not declare the capability it belongs to)`,
    );
  }
  return entry.handler(params ?? {}, new ServerCall(server, peer, inbound));
}
