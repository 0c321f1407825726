import type { SentRequest } from "../../connection/connection-options.js";
import { ErrorCode, McpError } from "../../jsonrpc/errors.js";
import type { JsonObject, JsonRpcNotification, RequestId } from "../../jsonrpc/types.js";
import { META } from "../../protocol/meta.js";
import { readFilter } from "../../protocol/subscription-filter.js";
import type { SubscriptionFilter } from "../../protocol/types/modern.js";
import type { ListenOptions, Subscription, SubscriptionEnd, SubscriptionListener } from "../subscription.js";

interface Open {
  listener: SubscriptionListener;
  acknowledged: boolean;
  onAck(filter: SubscriptionFilter): void;
}

/**
 * basic/patterns/subscriptions (2026-07-28): opens listen streams and routes what comes on
 * them by `_meta["io.modelcontextprotocol/subscriptionId"]`, the id of the listen request.
 * On stdio every subscription shares one channel, so the tag is the only way to tell them apart.
 */
export class Subscriptions {
  private readonly open = new Map<RequestId, Open>();

  /**
   * Sends the listen request through `send` and resolves once the server acknowledged it
   * (§Acknowledgment: always its first message), or rejects if it refused, ended or
   * stayed silent for `ackTimeoutMs`.
   */
  async listen(
    filter: SubscriptionFilter,
    listener: SubscriptionListener,
    send: (params: JsonObject, signal: AbortSignal) => SentRequest,
    ackTimeoutMs: number,
    options: ListenOptions = {},
  ): Promise<Subscription> {
    const controller = new AbortController();
    const signal = options.signal ? AbortSignal.any([options.signal, controller.signal]) : controller.signal;
    let acknowledge!: (filter: SubscriptionFilter) => void;
    const acknowledged = new Promise<SubscriptionFilter>((resolve) => {
      acknowledge = resolve;
    });
    const { id, response } = send({ notifications: filter as JsonObject }, signal);
    const entry: Open = { listener, acknowledged: false, onAck: acknowledge };
    this.open.set(id, entry);
    const closed: Promise<SubscriptionEnd> = response.then(
      () => ({ reason: "ended" }),
      (error: unknown) => (signal.aborted ? { reason: "closed" } : { reason: "lost", error }),
    );
    void closed.then(() => this.open.delete(id));

    let timer: ReturnType<typeof setTimeout> | undefined;
    const silence = new Promise<never>((_, reject) => {
      if (ackTimeoutMs > 0)
        timer = setTimeout(
          () =>
            reject(
              new McpError(
                ErrorCode.RequestTimeout,
                `subscriptions/listen was not acknowledged within ${ackTimeoutMs} ms`,
              ),
            ),
          ackTimeoutMs,
        );
    });
    const ended = closed.then((end) => {
      throw end.error ?? new McpError(ErrorCode.ConnectionClosed, "The subscription ended before it was acknowledged");
    });
    ended.catch(() => {}); // observed below by the race; marked handled so an unraced end is no unhandled rejection
    try {
      const agreed = await Promise.race([acknowledged, silence, ended]);
      return {
        id,
        filter: agreed,
        closed,
        close: async () => {
          controller.abort(new Error("Subscription closed by the client"));
          await closed;
        },
      };
    } catch (error) {
      controller.abort(error);
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Hands a notification tagged with a subscription id to its subscription; false if it has none. */
  route(notification: JsonRpcNotification): boolean {
    const meta = notification.params?._meta as Record<string, unknown> | undefined;
    const id = meta?.[META.subscriptionId];
    if (typeof id !== "string" && typeof id !== "number") return false;
    const entry = this.open.get(id);
    if (!entry) return false;
    if (notification.method === "notifications/subscriptions/acknowledged") {
      entry.acknowledged = true;
      entry.onAck(readFilter(notification.params?.notifications));
      return true;
    }
    // §Acknowledgment: nothing comes before the acknowledgment; ignore a server that breaks it.
    if (entry.acknowledged) entry.listener(notification);
    return true;
  }
}
