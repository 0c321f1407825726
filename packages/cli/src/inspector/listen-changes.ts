import type { Client, SubscriptionEnd, SubscriptionFilter } from "mcpkit/client";

/** A listen stream that ended is opened again after this long, doubling up to maxMs. */
const LISTEN_RETRY = { firstMs: 500, maxMs: 30_000 };
const METHOD_NOT_FOUND = -32601;

export interface ListenHooks {
  /** Whether this connection is still the session's and connected. */
  live(): boolean;
  /** The stream opened anew: changes may have been missed, the lists are read again. */
  stale(): void;
  /** The stream ended: the server may be gone, which a ping tells at once. */
  check(): void;
  warn(message: string): void;
}

/**
 * 2026-07-28 sends list changes only on a subscriptions/listen stream
 * (basic/patterns/subscriptions): one stays open for every list the server says changes,
 * and is opened again if it ends while connected (a server restarting, a dropped
 * stream), the lists read anew since changes may have been missed. The notifications
 * reach the client's `on()` listeners, hence the page, as in the legacy era.
 */
export async function listenForChanges(client: Client, hooks: ListenHooks): Promise<void> {
  const caps = client.serverCapabilities ?? {};
  const filter: SubscriptionFilter = {
    ...(caps.tools?.listChanged && { toolsListChanged: true }),
    ...(caps.prompts?.listChanged && { promptsListChanged: true }),
    ...(caps.resources?.listChanged && { resourcesListChanged: true }),
  };
  if (Object.keys(filter).length === 0) return;
  let delayMs = LISTEN_RETRY.firstMs;
  for (let opened = 0; hooks.live(); opened++) {
    const started = Date.now();
    let end: SubscriptionEnd;
    try {
      const subscription = await client.listen(filter, () => undefined);
      if (opened > 0 && hooks.live()) hooks.stale();
      end = await subscription.closed;
    } catch (error) {
      end = { reason: "lost", error };
    }
    if (end.reason === "closed" || !hooks.live()) return;
    if ((end.error as { code?: unknown } | undefined)?.code === METHOD_NOT_FOUND) {
      hooks.warn("The server has no subscriptions/listen: list changes will not reach the page");
      return;
    }
    hooks.check();
    if (Date.now() - started > LISTEN_RETRY.maxMs) delayMs = LISTEN_RETRY.firstMs;
    hooks.warn(
      `The subscriptions/listen stream ${end.reason === "ended" ? "ended" : "was lost"}${
        end.error instanceof Error ? ` (${end.error.message})` : ""
      }; listening again in ${delayMs} ms`,
    );
    await new Promise((resolve) => setTimeout(resolve, delayMs).unref());
    delayMs = Math.min(delayMs * 2, LISTEN_RETRY.maxMs);
  }
}
