import type { Redis } from "ioredis";

/**
 * One Redis pub/sub channel heard by local listeners. A connection in subscriber mode can
 * run no other command, so it is its own (a duplicate of the command connection). ioredis
 * subscribes again after a reconnection (autoResubscribe).
 */
export class Channel {
  readonly ready: Promise<void>;
  private readonly listeners = new Set<(message: string) => void>();
  private readonly subscriber: Redis;

  /**
   * `onConnection` hears the subscriber connection go down and come back (subscribed
   * again); without it, a loss is reported to `onError` once.
   */
  constructor(
    redis: Redis,
    readonly name: string,
    private readonly onError: (error: unknown) => void,
    onConnection?: (up: boolean, error?: Error) => void,
  ) {
    // Queued until connected, whatever the command connection does: SUBSCRIBE must go out.
    this.subscriber = redis.duplicate({ enableOfflineQueue: true, lazyConnect: false });
    // A dropped connection is retried by ioredis; said once instead of crashing on "error".
    let lost = false;
    this.subscriber.on("error", (error: Error) => {
      if (!lost) {
        if (onConnection) onConnection(false, error);
        else this.onError(error);
      }
      lost = true;
    });
    this.subscriber.on("ready", () => {
      if (lost) onConnection?.(true);
      lost = false;
    });
    this.subscriber.on("message", (channel: string, message: string) => {
      if (channel !== this.name) return;
      for (const listener of this.listeners) {
        try {
          listener(message);
        } catch (error) {
          // One listener's failure must not starve the others.
          this.onError(error);
        }
      }
    });
    this.ready = this.subscriber.subscribe(this.name).then(() => undefined);
  }

  listen(listener: (message: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    this.listeners.clear();
    this.subscriber.disconnect();
  }
}
