import type { JsonObject, JsonRpcNotification } from "../jsonrpc/types.js";

export type NotificationListener = (params: JsonObject, notification: JsonRpcNotification) => void;

/** Who listens for which notification method (Client.on). A listener that throws is reported, not fatal. */
export class NotificationListeners {
  private readonly byMethod = new Map<string, Set<NotificationListener>>();
  private readonly onError: ((error: unknown) => void) | undefined;

  constructor(onError: ((error: unknown) => void) | undefined) {
    this.onError = onError;
  }

  /** Returns a function that stops listening. */
  add(method: string, listener: NotificationListener): () => void {
    let set = this.byMethod.get(method);
    if (!set) {
      set = new Set();
      this.byMethod.set(method, set);
    }
    set.add(listener);
    return () => set.delete(listener);
  }

  has(method: string): boolean {
    return (this.byMethod.get(method)?.size ?? 0) > 0;
  }

  deliver(notification: JsonRpcNotification): void {
    const set = this.byMethod.get(notification.method);
    if (!set) return;
    const params = notification.params ?? {};
    for (const listener of set) this.guard(() => listener(params, notification));
  }

  /** Runs `run`, reporting what it throws. */
  guard(run: () => void): void {
    try {
      run();
    } catch (error) {
      this.onError?.(error);
    }
  }
}
