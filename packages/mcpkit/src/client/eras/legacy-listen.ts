import type { JsonRpcNotification } from "../../jsonrpc/types.js";
import { filterWants, honoredFilter } from "../../protocol/subscription-filter.js";
import type { ServerCapabilities } from "../../protocol/types/capabilities.js";
import type { SubscriptionFilter } from "../../protocol/types/modern.js";
import type { ListenOptions, Subscription, SubscriptionEnd, SubscriptionListener } from "../subscription.js";

/**
 * `client.listen()` on a server of a handshake revision (up to 2025-11-25), built on what
 * those revisions have: list_changed notifications the server sends whenever it declared
 * `listChanged`, and resources/subscribe for updates. The acknowledged filter keeps what
 * the server's capabilities allow, as a 2026-07-28 server would.
 */
export interface LegacyServer {
  capabilities(): ServerCapabilities | undefined;
  subscribe(uri: string): Promise<void>;
  unsubscribe(uri: string): Promise<void>;
}

interface Open {
  filter: SubscriptionFilter;
  listener: SubscriptionListener;
  end(end: SubscriptionEnd): void;
}

export class LegacySubscriptions {
  private readonly open = new Set<Open>();
  /** How many open subscriptions want each URI, so a URI is unsubscribed only when none does. */
  private readonly uses = new Map<string, number>();
  private readonly server: LegacyServer;

  constructor(server: LegacyServer) {
    this.server = server;
  }

  async listen(
    filter: SubscriptionFilter,
    listener: SubscriptionListener,
    options: ListenOptions = {},
  ): Promise<Subscription> {
    // The same answer a modern server would acknowledge with, from what this one declared.
    const agreed = honoredFilter(filter, this.server.capabilities() ?? {});
    const uris = agreed.resourceSubscriptions ?? [];
    const done: string[] = [];
    try {
      for (const uri of uris) {
        await this.use(uri);
        done.push(uri);
      }
    } catch (error) {
      // Undoing on the way out: the error that matters is the one rethrown below.
      for (const uri of done) await this.release(uri).catch(() => {});
      throw error;
    }
    let finish!: (end: SubscriptionEnd) => void;
    const closed = new Promise<SubscriptionEnd>((resolve) => {
      finish = resolve;
    });
    const entry: Open = { filter: agreed, listener, end: finish };
    this.open.add(entry);
    let closing: Promise<void> | undefined;
    const close = () => {
      closing ??= (async () => {
        this.open.delete(entry);
        // Closing is best effort: a server that is gone has no subscription left to end.
        for (const uri of agreed.resourceSubscriptions ?? []) await this.release(uri).catch(() => {});
        finish({ reason: "closed" });
      })();
      return closing;
    };
    options.signal?.addEventListener("abort", () => void close(), { once: true });
    if (options.signal?.aborted) await close();
    return { id: undefined, filter: agreed, closed, close };
  }

  /** Hands a notification to every open subscription that asked for it. */
  route(notification: JsonRpcNotification): void {
    for (const { filter, listener } of this.open) if (filterWants(filter, notification)) listener(notification);
  }

  /** The connection ended, and every subscription with it. */
  clear(error?: unknown): void {
    for (const entry of this.open) entry.end({ reason: "lost", error });
    this.open.clear();
    this.uses.clear();
  }

  private async use(uri: string): Promise<void> {
    const count = this.uses.get(uri) ?? 0;
    if (count === 0) await this.server.subscribe(uri);
    this.uses.set(uri, count + 1);
  }

  private async release(uri: string): Promise<void> {
    const count = this.uses.get(uri) ?? 0;
    if (count <= 1) {
      this.uses.delete(uri);
      if (count === 1) await this.server.unsubscribe(uri);
    } else this.uses.set(uri, count - 1);
  }
}
