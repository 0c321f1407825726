import { AsyncLocalStorage } from "node:async_hooks";
import type { Context } from "../server/context.js";

/**
 * Which downstream request an upstream server's request belongs to. A request the
 * upstream makes while answering a modern (2026-07-28) call is answered inside that call's
 * async chain, so the chain tells. A legacy server's request arrives on its own: JSON-RPC
 * does not say which call it serves, so the newest call still running takes it.
 */
export class RequestRouting {
  private readonly storage = new AsyncLocalStorage<Context>();
  private readonly running: Context[] = [];

  /** Runs `work` (one forwarded call) on behalf of `ctx`. */
  async run<T>(ctx: Context, work: () => Promise<T>): Promise<T> {
    this.running.push(ctx);
    try {
      return await this.storage.run(ctx, work);
    } finally {
      this.running.splice(this.running.lastIndexOf(ctx), 1);
    }
  }

  /** The downstream request being served here, else the newest one still running. */
  current(): Context | undefined {
    return this.storage.getStore() ?? this.running.at(-1);
  }

  /** The newest running request, for notifications that name no request (logs). */
  newest(): Context | undefined {
    return this.running.at(-1);
  }
}
