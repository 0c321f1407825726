import { invalidParams } from "../../../jsonrpc/errors.js";
import type { JsonObject } from "../../../jsonrpc/types.js";
import { META } from "../../../protocol/meta.js";
import { filterWants, honoredFilter, readFilter } from "../../../protocol/subscription-filter.js";
import type { EmptyResult } from "../../../protocol/types/common.js";
import type { SubscriptionFilter } from "../../../protocol/types/modern.js";
import type { ServerEvent } from "../../events.js";
import type { ResourceUnwatch } from "../../registry/resource.js";
import { watchTasks } from "../../tasks/listen.js";
import { SeenViews } from "../../views.js";
import { viewerOf } from "../authorization.js";
import { type Call, type Methods, method } from "../method.js";
import { findResource, guardResource } from "./resources.js";

/** subscriptions/listen's params as read: the filter, an object. */
type ListenParams = JsonObject & { notifications: JsonObject };

/**
 * subscriptions/listen (basic/patterns/subscriptions): acknowledge the part of the filter
 * this server honours, then pass on matching events, each tagged with the subscription id
 * (the request's id), until the client cancels or the server closes.
 */
export const subscriptionMethods: Methods<"subscriptions/listen"> = {
  "subscriptions/listen": method({
    params: (params) => {
      const requested = params.notifications;
      if (typeof requested !== "object" || requested === null || Array.isArray(requested))
        throw invalidParams('subscriptions/listen needs a "notifications" filter object');
      return params as ListenParams;
    },
    handler: listen,
  }),
};

/**
 * The filter's resources whose entries watch for themselves (ResourceWatch): each watched
 * for this stream. One that cannot be watched (the resource is unknown, or its watch
 * failed) is left out of the acknowledged filter; the failure goes to onError.
 */
async function watchResources(
  honored: SubscriptionFilter,
  call: Call,
  send: (method: string, extra?: JsonObject) => void,
): Promise<ResourceUnwatch[]> {
  const stops: ResourceUnwatch[] = [];
  const uris = honored.resourceSubscriptions;
  if (!uris) return stops;
  const kept: string[] = [];
  for (const uri of uris) {
    const found = findResource(call.server, uri);
    if (!found?.subscribe) {
      kept.push(uri);
      continue;
    }
    try {
      stops.push(await found.subscribe(call.context(), () => send("notifications/resources/updated", { uri })));
      kept.push(uri);
    } catch (error) {
      call.server.onError(error);
    }
  }
  honored.resourceSubscriptions = kept;
  return stops;
}

async function listen({ notifications: requested }: ListenParams, call: Call): Promise<EmptyResult> {
  const honored = honoredFilter(readFilter(requested), call.peer.serverCapabilities);
  // Each resource named is checked as resources/subscribe checks it: hidden or unknown is
  // "not found", lacking scopes is a step-up refusal.
  for (const uri of honored.resourceSubscriptions ?? []) guardResource(call, uri);
  const id = call.inbound.id;
  const tag = { [META.subscriptionId]: id };
  const send = (method: string, extra: object = {}) => call.peer.notify(method, { ...extra, _meta: tag }, id);
  const watches = await watchResources(honored, call, send);
  const tasks = await watchTasks(requested.taskIds, call, send);
  const acknowledged: JsonObject = tasks
    ? { ...(honored as JsonObject), taskIds: tasks.taskIds }
    : (honored as JsonObject);
  send("notifications/subscriptions/acknowledged", { notifications: acknowledged });

  // Where visibility makes this caller's lists differ from the full ones, a change is
  // passed on only when what this caller sees changed.
  const viewer = viewerOf(call);
  const views = new SeenViews(call.server, viewer.session, () => viewer);
  views.noteDiffering();
  const stop = call.server.events.subscribe((event: ServerEvent) => {
    const notification =
      event.type === "list_changed"
        ? { method: `notifications/${event.kind}/list_changed`, params: {} }
        : { method: "notifications/resources/updated", params: { uri: event.uri } };
    if (!filterWants(honored, notification)) return;
    if (event.type === "list_changed" && !views.changed(event.kind)) return;
    send(notification.method, notification.params);
  });
  return new Promise((resolve) => {
    const end = () => {
      stop();
      for (const unwatch of watches)
        void Promise.resolve()
          .then(unwatch)
          .catch((e) => call.server.onError(e));
      tasks?.stop();
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
