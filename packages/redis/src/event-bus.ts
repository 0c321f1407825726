import { randomBytes } from "node:crypto";
import type { Redis } from "ioredis";
import { type EventBus, namedKey, type PublishOptions, RecentKeys, type ServerEvent } from "mcpkit/server";
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
 * event; one subscriber connection per node, whatever the number of listeners. A change
 * several nodes publish under one key (PublishOptions.key) is delivered once on each node:
 * the second publication is dropped as it arrives.
 */
export class RedisEventBus implements EventBus {
  private readonly redis: Redis;
  private readonly channel: Channel;
  /** Publications are keyed `<bus>:<n>`, the same on every node that hears them. */
  private readonly name = randomBytes(6).toString("base64url");
  private published = 0;
  private readonly listeners = new Set<(event: ServerEvent, key?: string) => void>();
  private readonly recent = new RecentKeys();
  private readonly onError: (error: unknown) => void;
  private stopListening: (() => void) | undefined;

  constructor(redis: Redis, options: RedisEventBusOptions = {}) {
    this.redis = redis;
    this.onError = options.onError ?? report;
    this.channel = new Channel(redis, `${options.prefix ?? "mcpkit:"}events`, this.onError, options.onConnection);
  }

  /** Resolves once events published by other nodes are heard. */
  get ready(): Promise<void> {
    return this.channel.ready;
  }

  async publish(event: ServerEvent, options?: PublishOptions): Promise<void> {
    const key = options?.key === undefined ? `${this.name}:${++this.published}` : namedKey(options.key);
    await this.redis.publish(this.channel.name, JSON.stringify({ key, event }));
  }

  subscribe(listener: (event: ServerEvent, key?: string) => void): () => void {
    this.listeners.add(listener);
    // One channel listener per bus: each message is read, and checked against the keys seen, once.
    this.stopListening ??= this.channel.listen((message) => this.deliver(message));
    return () => this.listeners.delete(listener);
  }

  private deliver(message: string): void {
    const { key, event } = JSON.parse(message) as { key: string; event: ServerEvent };
    if (key.startsWith(namedKey("")) && !this.recent.first(key)) return;
    for (const listener of this.listeners) {
      try {
        listener(event, key);
      } catch (error) {
        // One listener's failure must not starve the others.
        this.onError(error);
      }
    }
  }

  close(): Promise<void> {
    this.listeners.clear();
    return this.channel.close();
  }
}
