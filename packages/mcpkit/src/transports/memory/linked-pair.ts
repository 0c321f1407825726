import type { JsonRpcMessage } from "../../jsonrpc/types.js";
import type { Transport, TransportSink } from "../transport.js";

/**
 * Two transports wired to each other in one process, for tests and embedding. Messages
 * cross as JSON text, so what arrives is exactly what a real wire would carry.
 */
export function createLinkedPair(): [Transport, Transport] {
  const a = new MemoryTransport();
  const b = new MemoryTransport();
  a.peer = b;
  b.peer = a;
  return [a, b];
}

class MemoryTransport implements Transport {
  readonly binding = "memory" as const;
  peer: MemoryTransport | undefined;
  private sink: TransportSink | undefined;
  private queue: string[] = [];
  private closed = false;

  start(sink: TransportSink): void {
    this.sink = sink;
    const queued = this.queue;
    this.queue = [];
    for (const text of queued) this.deliver(text);
  }

  send(message: JsonRpcMessage | JsonRpcMessage[]): void {
    if (this.closed) throw new Error("Transport is closed");
    const text = JSON.stringify(message);
    const peer = this.peer;
    queueMicrotask(() => peer?.deliver(text));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.sink?.close();
    const peer = this.peer;
    queueMicrotask(() => void peer?.close());
  }

  private deliver(text: string): void {
    if (this.closed) return;
    if (!this.sink) {
      this.queue.push(text);
      return;
    }
    this.sink.message(JSON.parse(text));
  }
}
