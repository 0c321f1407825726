/** The lists a client can be told changed (notifications/{kind}/list_changed). */
export type ListKind = "tools" | "resources" | "prompts";

/**
 * What happens to a server definition that connected clients may need to hear about.
 * Published on an EventBus so every session and subscription stream (on this node or,
 * with a shared bus such as Redis, on any node) can pass it on.
 */
export type ServerEvent = { type: "list_changed"; kind: ListKind } | { type: "resource_updated"; uri: string };

export interface PublishOptions {
  /**
   * Names the change itself, the same on every node that sees it (a file's state after
   * it changed, say), for changes that several nodes notice at once: a bus delivers one
   * publication per key (within RecentKeys' window), so each subscriber hears of the
   * change once. Without it, every publication is delivered.
   */
  key?: string;
}

export interface EventBus {
  publish(event: ServerEvent, options?: PublishOptions): void | Promise<void>;
  /**
   * Returns a function that stops the subscription. A bus shared by nodes gives each
   * publication a `key`, the same on every node, so what several nodes pass on for one
   * event is stored once.
   */
  subscribe(listener: (event: ServerEvent, key?: string) => void): () => void;
}

/** The key of a publication its publisher named (PublishOptions.key): apart from the ones a bus makes up. */
export const namedKey = (key: string) => `=${key}`;

/**
 * The named publication keys a bus has delivered lately, so that a change published by
 * several nodes is delivered once: each is remembered for `windowMs` (default a minute),
 * at most `max` of them (default 10 000; the oldest go first).
 */
export class RecentKeys {
  private readonly seen = new Map<string, number>();

  constructor(
    private readonly windowMs = 60_000,
    private readonly max = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** True the first time `key` is offered within the window. */
  first(key: string): boolean {
    const t = this.now();
    // The map is in insertion order: drop what left the window, and the oldest past `max`.
    for (const [old, at] of this.seen) {
      if (at > t - this.windowMs && this.seen.size < this.max) break;
      this.seen.delete(old);
    }
    if (this.seen.has(key)) return false;
    this.seen.set(key, t);
    return true;
  }
}

export interface InMemoryEventBusOptions {
  /** A listener threw (default: printed to stderr); the others still get the event. */
  onError?: (error: unknown) => void;
}

/** The default bus: listeners in this process. */
export class InMemoryEventBus implements EventBus {
  private readonly listeners = new Set<(event: ServerEvent, key?: string) => void>();
  private readonly onError: (error: unknown) => void;
  private published = 0;
  private readonly recent = new RecentKeys();

  constructor(options: InMemoryEventBusOptions = {}) {
    this.onError =
      options.onError ?? ((error) => process.stderr.write(`mcpkit: event listener failed: ${String(error)}\n`));
  }

  publish(event: ServerEvent, options?: PublishOptions): void {
    // Keyed too: endpoints of one process sharing a bus and an event store store it once.
    let key: string;
    if (options?.key === undefined) key = `${++this.published}`;
    else {
      key = namedKey(options.key);
      if (!this.recent.first(key)) return;
    }
    for (const listener of this.listeners) {
      try {
        listener(event, key);
      } catch (error) {
        // One listener's failure must not starve the others.
        this.onError(error);
      }
    }
  }

  subscribe(listener: (event: ServerEvent, key?: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get listenerCount(): number {
    return this.listeners.size;
  }
}
