import type { RequestId } from "../../jsonrpc/types.js";
import type { SubscriptionFilter } from "../../protocol/types/modern.js";
import type { Subscription } from "../subscription.js";

/**
 * resources/subscribe on a 2026-07-28 server, which has no such method
 * (basic/patterns/subscriptions replaces it): one subscriptions/listen stream carries
 * every subscribed URI. A change opens the new stream before the old one closes, so no
 * update falls between them, and what the old one still brings is dropped (`superseded`),
 * so none comes twice; changes run one at a time.
 */
export class ResourceSubscriptions {
  private readonly uris = new Set<string>();
  private current: Subscription | undefined;
  /** Streams replaced by a newer one and not yet closed. */
  private readonly replaced = new Set<RequestId>();
  private queue: Promise<void> = Promise.resolve();
  private readonly listen: (filter: SubscriptionFilter) => Promise<Subscription>;

  constructor(listen: (filter: SubscriptionFilter) => Promise<Subscription>) {
    this.listen = listen;
  }

  /** Resolves once a stream for the URI was acknowledged; a refusal leaves things as they were. */
  async add(uri: string): Promise<void> {
    if (this.uris.has(uri)) return;
    this.uris.add(uri);
    await this.relisten().catch((error: unknown) => {
      this.uris.delete(uri);
      throw error;
    });
  }

  async remove(uri: string): Promise<void> {
    if (!this.uris.delete(uri)) return;
    await this.relisten().catch((error: unknown) => {
      this.uris.add(uri);
      throw error;
    });
  }

  /** Whether a notification came on a stream that a newer one has replaced. */
  superseded(subscriptionId: unknown): boolean {
    return this.replaced.has(subscriptionId as RequestId);
  }

  private relisten(): Promise<void> {
    const next = this.queue.then(async () => {
      const previous = this.current;
      this.current = this.uris.size > 0 ? await this.listen({ resourceSubscriptions: [...this.uris] }) : undefined;
      if (previous?.id === undefined) return;
      this.replaced.add(previous.id);
      await previous.close().finally(() => this.replaced.delete(previous.id as RequestId));
    });
    this.queue = next.catch(() => undefined); // the caller gets the failure from `next`; the queue goes on
    return next;
  }
}
