import { invalidParams } from "../../jsonrpc/errors.js";
import type { JsonObject } from "../../jsonrpc/types.js";
import { META } from "../../protocol/meta.js";
import type { ServerEvent } from "../ports.js";
import type { Call, MethodTable } from "./types.js";

interface Filter {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  resourceSubscriptions?: string[];
}

const LIST_FLAG = {
  tools: "toolsListChanged",
  prompts: "promptsListChanged",
  resources: "resourcesListChanged",
} as const;

/**
 * subscriptions/listen (basic/patterns/subscriptions): acknowledge the part of the filter
 * this server honours, then pass on matching events, each tagged with the subscription id
 * (the request's id), until the client cancels or the server closes.
 */
export const subscriptionMethods: MethodTable = {
  "subscriptions/listen": { handler: listen },
};

function listen(params: JsonObject, call: Call): Promise<JsonObject> {
  const requested = params.notifications;
  if (typeof requested !== "object" || requested === null || Array.isArray(requested)) {
    throw invalidParams('subscriptions/listen needs a "notifications" filter object');
  }
  const want = requested as Filter;
  const caps = call.peer.serverCapabilities;
  const honored: Filter = {};
  if (want.toolsListChanged && caps.tools?.listChanged) honored.toolsListChanged = true;
  if (want.promptsListChanged && caps.prompts?.listChanged) honored.promptsListChanged = true;
  if (want.resourcesListChanged && caps.resources?.listChanged) honored.resourcesListChanged = true;
  if (Array.isArray(want.resourceSubscriptions) && caps.resources) {
    honored.resourceSubscriptions = want.resourceSubscriptions.filter((u): u is string => typeof u === "string");
  }
  const id = call.inbound.id;
  const tag = { [META.subscriptionId]: id };
  const send = (method: string, extra: JsonObject = {}) => call.peer.notify(method, { ...extra, _meta: tag }, id);
  send("notifications/subscriptions/acknowledged", { notifications: honored as JsonObject });

  const watched = new Set(honored.resourceSubscriptions ?? []);
  const stop = call.server.events.subscribe((event: ServerEvent) => {
    if (event.type === "list_changed") {
      if (honored[LIST_FLAG[event.kind]]) send(`notifications/${event.kind}/list_changed`);
    } else if (watched.has(event.uri)) {
      send("notifications/resources/updated", { uri: event.uri });
    }
  });
  return new Promise((resolve) => {
    const end = () => {
      stop();
      forget();
      // Graceful closure: the response to the listen request ends it (ignored once cancelled).
      resolve({ _meta: tag });
    };
    const forget = call.server.onClose(end);
    const signal = call.inbound.signal;
    if (signal.aborted) end();
    else signal.addEventListener("abort", end, { once: true });
  });
}
