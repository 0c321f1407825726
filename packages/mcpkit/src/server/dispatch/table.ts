import type { InboundRequest } from "../../connection/inbound-request.js";
import { ErrorCode, McpError, methodNotFound } from "../../jsonrpc/errors.js";
import type { JsonObject } from "../../jsonrpc/types.js";
import type { ServerResults } from "../../protocol/types/server-results.js";
import type { Registry } from "../registry/registry.js";
import type { ClientPeer } from "./client-peer.js";
import { loggingMethods } from "./handlers/logging.js";
import { toolMethods } from "./handlers/tools.js";
import { type Call, type Method, type Methods, type MethodTable, method } from "./method.js";
import { RequestContext } from "./request-context.js";

/**
 * A family of the table whose module is imported on its first request, so a server that
 * has no prompts, resources or tasks never loads their handlers (a stdio server starts on
 * every launch of its client). Until then, each entry loads the family, checks the
 * capability as dispatch does, and runs it; from then on, each is the loaded entry.
 */
function onFirstUse<M extends keyof ServerResults>(names: readonly M[], load: () => Promise<Methods<M>>): Methods<M> {
  let loading: Promise<Methods<M>> | undefined;
  const family: Record<string, { capability?: Method["capability"]; run: Method["run"] }> = {};
  const loaded = () =>
    (loading ??= load().then((methods) => {
      for (const name of names) Object.assign(family[name] as object, methods[name]);
      return methods;
    }));
  for (const name of names) {
    family[name] = {
      run: async (params, call) => {
        const entry: Method = (await loaded())[name];
        if (entry.capability && !entry.capability(call.peer.serverCapabilities)) throw capabilityMissing(name);
        return entry.run(params, call);
      },
    };
  }
  return family as Methods<M>;
}

/** Every server method outside the lifecycle; a revision's table says which exist. */
export const serverMethods: MethodTable = {
  ping: method({ handler: () => ({}) }),
  ...toolMethods,
  ...loggingMethods,
  ...onFirstUse(
    ["resources/list", "resources/templates/list", "resources/read", "resources/subscribe", "resources/unsubscribe"],
    async () => (await import("./handlers/resources.js")).resourceMethods,
  ),
  ...onFirstUse(["prompts/list", "prompts/get"], async () => (await import("./handlers/prompts.js")).promptMethods),
  ...onFirstUse(["completion/complete"], async () => (await import("./handlers/completion.js")).completionMethods),
  ...onFirstUse(["server/discover"], async () => (await import("./handlers/discover.js")).discoverMethods),
  ...onFirstUse(
    ["subscriptions/listen"],
    async () => (await import("./handlers/subscriptions.js")).subscriptionMethods,
  ),
  ...onFirstUse(
    ["skills/list", "skills/get", "resources/directory/read"],
    async () => (await import("./handlers/skills.js")).skillMethods,
  ),
  ...onFirstUse(
    ["tasks/get", "tasks/update", "tasks/cancel", "tasks/result", "tasks/list"],
    async () => (await import("./handlers/tasks.js")).taskMethods,
  ),
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
  if (entry.capability && !entry.capability(peer.serverCapabilities)) throw capabilityMissing(name);
  return entry.run(params ?? {}, new ServerCall(server, peer, inbound));
}

function capabilityMissing(name: string): McpError {
  return new McpError(
    ErrorCode.MethodNotFound,
    `Method not found: ${name} (this server did not declare the capability it belongs to)`,
  );
}
