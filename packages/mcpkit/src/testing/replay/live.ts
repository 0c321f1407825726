import type { JsonRpcMessage } from "../../jsonrpc/types.js";
import type { Transport } from "../../transports/transport.js";
import { type Classified, classify } from "./script.js";

/** What the server sent during the replay, in order, and a way to wait for more. */
export class LiveServer {
  /** Every message, in the order it arrived. */
  readonly received: Classified[] = [];
  readonly answers = new Map<string | number, Classified>();
  readonly requests = new Map<string, Classified[]>();
  readonly notifications: Classified[] = [];
  closed: Error | "closed" | undefined;
  private waiters = new Set<() => void>();

  constructor(
    private readonly transport: Transport,
    /** Answers a request of the server (sampling, elicitation, roots…). */
    private readonly answer: (request: Classified) => Record<string, unknown>,
    /** Told each answer as it arrives, before anything else is sent. */
    private readonly onAnswer: (answer: Classified) => void,
  ) {}

  async start(): Promise<void> {
    await this.transport.start({
      message: (value) => {
        for (const message of Array.isArray(value) ? value : [value]) this.receive(message);
        this.wake();
      },
      invalid: (error) => {
        this.received.push({ kind: "notification", method: "(unreadable)", message: { error } });
        this.wake();
      },
      close: (reason) => {
        // The transport's reason says most (how the process ended), even after a failed send.
        this.closed = reason ?? this.closed ?? "closed";
        this.wake();
      },
    });
  }

  send(message: Record<string, unknown>): void {
    if (this.closed) return;
    try {
      this.transport.send(message as unknown as JsonRpcMessage);
    } catch (error) {
      // The server is gone before the transport said so (a process that just exited).
      this.closed = error as Error;
      this.wake();
    }
  }

  private receive(message: unknown): void {
    const c = classify(message);
    if (!c) {
      this.received.push({ kind: "notification", method: "(not JSON-RPC)", message: { message } });
      return;
    }
    this.received.push(c);
    if (c.kind === "response") {
      if (!this.answers.has(c.id as string | number)) this.answers.set(c.id as string | number, c);
      this.onAnswer(c);
    } else if (c.kind === "request") {
      const list = this.requests.get(c.method as string) ?? [];
      list.push(c);
      this.requests.set(c.method as string, list);
      this.send(this.answer(c));
    } else this.notifications.push(c);
  }

  /**
   * Resolves when `ready()` holds, the connection closed, or `ms` passed (then false): a
   * server that never sends what the recording expects is reported, not waited for forever.
   */
  until(ready: () => boolean, ms: number): Promise<boolean> {
    if (ready()) return Promise.resolve(true);
    if (this.closed) return Promise.resolve(false);
    return new Promise((resolve) => {
      const check = () => {
        if (ready()) finish(true);
        else if (this.closed) finish(false);
      };
      const timer = setTimeout(() => finish(false), ms);
      const finish = (value: boolean) => {
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve(value);
      };
      this.waiters.add(check);
    });
  }

  private wake(): void {
    for (const waiter of [...this.waiters]) waiter();
  }

  close(): Promise<void> {
    return this.transport.close();
  }
}
