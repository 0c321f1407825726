import type { JsonObject } from "mcpkit";
import type { SubscriptionFilter } from "mcpkit/client";
import { EXIT, UsageError } from "../exit-codes.js";
import { formatLog } from "../format/log.js";
import type { Output } from "../output.js";
import type { Action } from "./session.js";

const DESCRIBE: Record<string, string> = {
  "notifications/tools/list_changed": "tools changed",
  "notifications/prompts/list_changed": "prompts changed",
  "notifications/resources/list_changed": "resources changed",
  "notifications/resources/updated": "resource updated",
  "notifications/message": "log",
};

/**
 * `watch [URI…]`: prints change notifications as they arrive (every list the server can
 * say changed, and updates to the URIs given) plus its log messages, until Ctrl+C, which
 * is how a watch normally ends (exit 0). Built on client.listen: subscriptions/listen on
 * 2026-07-28, list_changed and resources/subscribe before it (basic/patterns/subscriptions).
 * With --json, one JSON object per line.
 */
export const watch: Action = (uris) => {
  const flag = uris.find((uri) => uri.startsWith("-"));
  if (flag)
    throw new UsageError(`watch takes resource URIs, not ${flag} (options go before the server, and before --)`);
  return async ({ client, out, signal }) => {
    const show = (method: string, params: JsonObject) => printEvent(out, method, params);
    client.on("notifications/message", (params) => show("notifications/message", params));
    const wanted: SubscriptionFilter = { toolsListChanged: true, promptsListChanged: true, resourcesListChanged: true };
    if (uris.length > 0) wanted.resourceSubscriptions = uris;
    const subscription = await client.listen(wanted, (n) => show(n.method, n.params ?? {}), { signal });
    const agreed = subscription.filter;
    const missing = uris.filter((uri) => !agreed.resourceSubscriptions?.includes(uri));
    if (missing.length > 0)
      out.note(out.ce.yellow(`The server does not offer updates for ${missing.join(", ")} (no resources.subscribe)`));
    const watching = [
      agreed.toolsListChanged && "tools",
      agreed.promptsListChanged && "prompts",
      agreed.resourcesListChanged && "resources",
      ...(agreed.resourceSubscriptions ?? []),
    ].filter(Boolean);
    out.note(out.ce.dim(`Watching ${watching.join(", ") || "log messages only"}; Ctrl+C to stop`));
    const stopped = new Promise<"stopped">((resolve) => {
      if (signal.aborted) resolve("stopped");
      signal.addEventListener("abort", () => resolve("stopped"), { once: true });
    });
    const end = await Promise.race([subscription.closed, stopped]);
    // Ctrl+C also closes the subscription through the signal, and that end may win the
    // race (or the server, in the same process group, may go with it): the user stopped it.
    if (end === "stopped" || end.reason === "closed" || signal.aborted) {
      await subscription.close();
      return EXIT.ok;
    }
    if (end.reason === "lost") {
      out.note(out.ce.red(`The subscription was lost${end.error ? `: ${(end.error as Error).message}` : ""}`));
      return EXIT.connection;
    }
    out.note(out.ce.dim("The server ended the subscription"));
    return EXIT.ok;
  };
};

function printEvent(out: Output, method: string, params: JsonObject): void {
  if (out.json) {
    out.line(JSON.stringify({ method, params }));
    return;
  }
  const time = out.c.dim(new Date().toTimeString().slice(0, 8));
  const what = DESCRIBE[method] ?? method;
  let detail = "";
  if (method === "notifications/resources/updated") detail = String(params.uri);
  else if (method === "notifications/message") detail = formatLog(params);
  out.line(`${time}  ${out.c.bold(what)}${detail ? `  ${detail}` : ""}`);
}
