/** The lists a client can be told changed (notifications/{kind}/list_changed). */
export type ListKind = "tools" | "resources" | "prompts";

/**
 * What happens to a server definition that connected clients may need to hear about.
 * Published on an EventBus so every session and subscription stream (on this node or,
 * with a shared bus such as Redis, on any node) can pass it on.
 */
export type ServerEvent = { type: "list_changed"; kind: ListKind } | { type: "resource_updated"; uri: string };

export interface EventBus {
  publish(event: ServerEvent): void | Promise<void>;
  /**
   * Returns a function that stops the subscription. A bus shared by nodes gives each
   * publication a `key`, the same on every node, so what several nodes pass on for one
   * event is stored once.
   */
  subscribe(listener: (event: ServerEvent, key?: string) => void): () => void;
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

  constructor(options: InMemoryEventBusOptions = {}) {
    this.onError =
      options.onError ?? ((error) => process.stderr.write(`mcpkit: event listener failed: ${String(error)}\n`));
  }

  publish(event: ServerEvent): void {
    // Keyed too: endpoints of one process sharing a bus and an event store store it once.
    const key = `${++this.published}`;
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
