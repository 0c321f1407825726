import { McpError } from "mcpkit";
import type { Ask, Reply } from "./contract/entries.js";

export type { Ask, Reply };

/**
 * The questions waiting for the person. Each one is shown in every open page until it is
 * answered there, or until the server withdraws it (its request was cancelled).
 */
export class Asks {
  private readonly waiting = new Map<number, { ask: Ask; settle: (reply: Reply) => void }>();
  private seq = 0;

  constructor(private readonly changed: (asks: Ask[]) => void) {}

  get pending(): Ask[] {
    return [...this.waiting.values()].map((w) => w.ask);
  }

  /** `params` are the server's, for `method` (the client checked them). */
  ask(method: Ask["method"], params: object, via: Ask["via"], signal: AbortSignal): Promise<object> {
    const ask = { id: ++this.seq, method, params, via } as Ask;
    return new Promise<object>((resolve, reject) => {
      const withdraw = () => {
        this.settle(ask.id);
        reject(signal.reason);
      };
      if (signal.aborted) return withdraw();
      signal.addEventListener("abort", withdraw, { once: true });
      this.waiting.set(ask.id, {
        ask,
        settle: (reply) => {
          signal.removeEventListener("abort", withdraw);
          if ("result" in reply) resolve(reply.result);
          // -1: the code the spec's examples use for a person's refusal (client/sampling).
          else reject(new McpError(-1, reply.refuse));
        },
      });
      this.changed(this.pending);
    });
  }

  /** The page answered; false when the question is gone (answered elsewhere, or withdrawn). */
  answer(id: number, reply: Reply): boolean {
    const waiting = this.waiting.get(id);
    if (!waiting) return false;
    this.settle(id);
    waiting.settle(reply);
    return true;
  }

  /** Refuses everything still waiting (the connection is going away). */
  clear(reason: string): void {
    for (const id of [...this.waiting.keys()]) this.answer(id, { refuse: reason });
  }

  private settle(id: number): void {
    if (this.waiting.delete(id)) this.changed(this.pending);
  }
}
