import type { Redis } from "ioredis";
import type { EventBus, ServerEvent } from "mcpkit/server";
import { Channel } from "./channel.js";
import { report } from "./session-store.js";

export interface RedisEventBusOptions {
  /** Prefix of the channel (default "mcpkit:"). */
  prefix?: string;
  /** A listener threw or the pub/sub connection failed (default: printed to stderr). */
  onError?: (error: unknown) => void;
}

/**
 * The event bus over Redis pub/sub: list changes and resource updates published on any
 * node reach the sessions and subscriptions/listen streams of every node. One PUBLISH per
 * event; one subscriber connection per node, whatever the number of listeners.
 */
export class RedisEventBus implements EventBus {
  private readonly redis: Redis;
  private readonly channel: Channel;

  constructor(redis: Redis, options: RedisEventBusOptions = {}) {
    this.redis = redis;
    this.channel = new Channel(redis, `${options.prefix ?? "mcpkit:"}events`, options.onError ?? report);
  }

  /** Resolves once events published by other nodes are heard. */
  get ready(): Promise<void> {
    return this.channel.ready;
  }

  async publish(event: ServerEvent): Promise<void> {
    await this.redis.publish(this.channel.name, JSON.stringify(event));
  }

  subscribe(listener: (event: ServerEvent) => void): () => void {
    return this.channel.listen((message) => listener(JSON.parse(message) as ServerEvent));
  }

  close(): Promise<void> {
    return this.channel.close();
  }
}
