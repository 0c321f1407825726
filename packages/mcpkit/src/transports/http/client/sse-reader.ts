import { createParser, type EventSourceMessage } from "eventsource-parser";

export type { EventSourceMessage };

export interface SseHandlers {
  onEvent(event: EventSourceMessage): void;
  /** The server's `retry` field: how long to wait before reconnecting. */
  onRetry?(ms: number): void;
  /** A comment line (servers send them to keep idle streams open). */
  onComment?(comment: string): void;
}

/** An event larger than the configured limit: the stream is abandoned, not resumed. */
export class SseEventTooLarge extends Error {
  constructor(limit: number) {
    super(`The server sent an event larger than the ${limit}-byte limit`);
    this.name = "SseEventTooLarge";
  }
}

/**
 * Reads one `text/event-stream` body to its end with the `eventsource-parser` package
 * (the WHATWG event stream interpretation, which transports §Streamable HTTP builds on).
 * Resolves when the server ends the stream; rejects when the connection fails, the
 * request is aborted, or one event outgrows `maxBytes`.
 */
export async function readSse(
  body: ReadableStream<Uint8Array>,
  handlers: SseHandlers,
  maxBytes: number,
): Promise<void> {
  let tooLarge = false;
  const parser = createParser({
    onEvent: handlers.onEvent,
    onRetry: handlers.onRetry,
    onComment: handlers.onComment,
    onError: (error) => {
      if (error.type === "max-buffer-size-exceeded") tooLarge = true;
    },
    // The parser counts UTF-16 units; a byte limit bounds them too.
    maxBufferSize: maxBytes,
  });
  const decoder = new TextDecoder();
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      parser.feed(decoder.decode(value, { stream: true }));
      if (tooLarge) throw new SseEventTooLarge(maxBytes);
    }
  } catch (error) {
    // Only discarding the body: a failed cancel leaves nothing to clean up.
    reader.cancel().catch(() => {});
    throw error;
  }
}
