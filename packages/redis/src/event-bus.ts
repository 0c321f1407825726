import { randomBytes } from "node:crypto";
import type { Redis } from "ioredis";
import type { EventBus, ServerEvent } from "mcpkit/server";
import { Channel } from "./channel.js";
import { report } from "./session-store.js";

export interface RedisEventBusOptions {
  /** Prefix of the channel (default "mcpkit:"). */
  prefix?: string;
  /** A listener threw or the pub/sub connection failed (default: printed to stderr). */
  onError?: (error: unknown) => void;
  /** Hears the pub/sub connection go down and come back (then connection losses are not errors). */
  onConnection?: (up: boolean, error?: Error) => void;
}

/**
 * The event bus over Redis pub/sub: list changes and resource updates published on any
 * node reach the sessions and subscriptions/listen streams of every node. One PUBLISH per
 * event; one subscriber connection per node, whatever the number of listeners.
 */
export class RedisEventBus implements EventBus {
  private readonly redis: Redis;
  private readonly channel: Channel;
  /** Publications are keyed `<bus>:<n>`, the same on every node that hears them. */
  private readonly name = randomBytes(6).toString("base64url");
  private published = 0;

  constructor(redis: Redis, options: RedisEventBusOptions = {}) {
    this.redis = redis;
    this.channel = new Channel(
      redis,
      `${options.prefix ?? "mcpkit:"}events`,
      options.onError ?? report,
      options.onConnection,
    );
  }

  /** Resolves once events published by other nodes are heard. */
  get ready(): Promise<void> {
    return this.channel.ready;
  }

  async publish(event: ServerEvent): Promise<void> {
    const key = `${this.name}:${++this.published}`;
    await this.redis.publish(this.channel.name, JSON.stringify({ key, event }));
  }

  subscribe(listener: (event: ServerEvent, key?: string) => void): () => void {
    return this.channel.listen((message) => {
      const { key, event } = JSON.parse(message) as { key: string; event: ServerEvent };
      listener(event, key);
    });
  }

  close(): Promise<void> {
    return this.channel.close();
  }
}
