import { AsyncLocalStorage } from "node:async_hooks";
import type { Context } from "../server/handler-context.js";

/**
 * Which downstream request an upstream server's request or log message belongs to. What
 * the upstream sends while answering a modern (2026-07-28) call arrives inside that call's
 * async chain, so the chain tells. A legacy server's arrives on its own: JSON-RPC does not
 * say which call it serves. It goes to the call in progress when there is one, or when all
 * of them come from one session (the newest); when calls of different sessions run, or
 * none does, it names no caller: one caller must never see another's questions or logs.
 */
export class RequestRouting {
  private readonly storage = new AsyncLocalStorage<Context>();
  private readonly running: Context[] = [];
  private readonly waiting: (() => void)[] = [];

  /** Runs `work` (one forwarded call) on behalf of `ctx`. */
  async run<T>(ctx: Context, work: () => Promise<T>): Promise<T> {
    this.running.push(ctx);
    try {
      return await this.storage.run(ctx, work);
    } finally {
      this.running.splice(this.running.lastIndexOf(ctx), 1);
      if (this.running.length === 0) for (const wake of this.waiting.splice(0)) wake();
    }
  }

  /** Whether no call is in progress. */
  get idle(): boolean {
    return this.running.length === 0;
  }

  /** Resolves once no call is in progress. */
  whenIdle(): Promise<void> {
    if (this.idle) return Promise.resolve();
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** The downstream request being served here, else the one `unnamed()` picks. */
  current(): Context | undefined {
    return this.storage.getStore() ?? this.unnamed();
  }

  /** For what names no request: the call in progress, or the newest when all are one session's. */
  private unnamed(): Context | undefined {
    const newest = this.running.at(-1);
    if (this.running.length <= 1) return newest;
    const session = newest?.session;
    return session && this.running.every((ctx) => ctx.session === session) ? newest : undefined;
  }
}
