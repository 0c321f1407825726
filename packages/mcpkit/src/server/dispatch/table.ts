import type { InboundRequest } from "../../connection/inbound-request.js";
import { ErrorCode, McpError, methodNotFound } from "../../jsonrpc/errors.js";
import type { JsonObject } from "../../jsonrpc/types.js";
import type { Registry } from "../registry/registry.js";
import type { ClientPeer } from "./client-peer.js";
import { completionMethods } from "./handlers/completion.js";
import { discoverMethods } from "./handlers/discover.js";
import { loggingMethods } from "./handlers/logging.js";
import { promptMethods } from "./handlers/prompts.js";
import { resourceMethods } from "./handlers/resources.js";
import { skillMethods } from "./handlers/skills.js";
import { subscriptionMethods } from "./handlers/subscriptions.js";
import { taskMethods } from "./handlers/tasks.js";
import { toolMethods } from "./handlers/tools.js";
import { type Call, type Method, type MethodTable, method } from "./method.js";
import { RequestContext } from "./request-context.js";

/** Every server method outside the lifecycle; a revision's table says which exist. */
export const serverMethods: MethodTable = {
  ping: method({ handler: () => ({}) }),
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

/** The table by name: only names in a revision's method set are looked up (never "constructor"). */
const byName: Readonly<Record<string, Method>> = serverMethods;

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
 * declared capability is -32601 (basic/lifecycle §Capability Negotiation). The result is
 * the entry's typed result, which the era adapter hands on as JSON.
 */
export function dispatch(
  server: Registry,
  peer: ClientPeer,
  inbound: InboundRequest,
  params: JsonObject | undefined = inbound.params,
): object | Promise<object> {
  const name = inbound.method;
  // The revision's set is checked first, so names like "constructor" never reach the table.
  const entry = peer.rules.methods.has(name) ? byName[name] : undefined;
  if (entry === undefined) {
    throw methodNotFound(name);
  }
  if (entry.capability && !entry.capability(peer.serverCapabilities)) {
    throw new McpError(
      ErrorCode.MethodNotFound,
      `Method not found: ${name} (this server did not declare the capability it belongs to)`,
    );
  }
  return entry.run(params ?? {}, new ServerCall(server, peer, inbound));
}
