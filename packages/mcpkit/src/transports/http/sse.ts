/** Server-Sent Events framing (HTML §9.2 "Server-sent events"). */

const encoder = new TextEncoder();

export interface SseEvent {
  id?: string;
  event?: string;
  retry?: number;
  /** Omitted data still ends the event; "" is an empty data field (a priming event). */
  data?: string;
}

export function formatSse(event: SseEvent): string {
  let out = "";
  if (event.id !== undefined) out += `id: ${event.id}\n`;
  if (event.event !== undefined) out += `event: ${event.event}\n`;
  if (event.retry !== undefined) out += `retry: ${event.retry}\n`;
  if (event.data !== undefined) {
    // JSON.stringify never emits raw newlines, but a data field must not contain any.
    for (const line of event.data.split("\n")) out += `data: ${line}\n`;
  }
  return `${out}\n`;
}

export const SSE_HEADERS = {
  "content-type": "text/event-stream",
  "cache-control": "no-cache, no-transform",
  connection: "keep-alive",
  // streamable-http §Receiving Messages: proxies such as nginx must not buffer the stream.
  "x-accel-buffering": "no",
} as const;

/**
 * One open SSE response body. Writes after the client went away are dropped; `onGone`
 * tells the owner, who keeps the logical stream (transports §Resumability).
 */
export class SseConnection {
  readonly body: ReadableStream<Uint8Array>;
  private controller!: ReadableStreamDefaultController<Uint8Array>;
  private open = true;
  private keepAlive: ReturnType<typeof setInterval> | undefined;

  constructor(onGone: () => void, keepAliveMs = 0) {
    this.body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.controller = controller;
      },
      cancel: () => {
        this.stop();
        onGone();
      },
    });
    if (keepAliveMs > 0) {
      // A comment line keeps proxies from closing an idle stream.
      this.keepAlive = setInterval(() => this.write(": keep-alive\n\n"), keepAliveMs);
      this.keepAlive.unref?.();
    }
  }

  get isOpen(): boolean {
    return this.open;
  }

  write(text: string): void {
    if (!this.open) return;
    try {
      this.controller.enqueue(encoder.encode(text));
    } catch {
      this.stop();
    }
  }

  close(): void {
    if (!this.open) return;
    this.stop();
    try {
      this.controller.close();
    } catch {
      // Already errored or cancelled.
    }
  }

  private stop(): void {
    this.open = false;
    if (this.keepAlive) clearInterval(this.keepAlive);
  }
}
