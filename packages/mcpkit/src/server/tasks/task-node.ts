import { randomUUID } from "node:crypto";
import { ErrorCode } from "../../jsonrpc/errors.js";
import type { TaskStore } from "./store.js";

/** A task this node's handler is working on. */
export interface RunningTask {
  readonly taskId: string;
  /** Fails the task with `message` (unless it ended already) and aborts its handler. */
  fail(message: string): Promise<void>;
}

/**
 * This node's part in tasks: the tasks its handlers work on, and, with a store shared by
 * nodes (one with heartbeats), the lease on them. The node says it is alive every third
 * of `leaseMs` and then fails the running tasks of nodes whose heartbeat lapsed (they
 * died with them), so that their requesters learn within seconds instead of waiting out
 * the TTL. A node that stops (server.close) fails its own running tasks first.
 */
export class TaskNode {
  /** This node's name in the store's heartbeats; undefined when the store keeps none. */
  readonly id: string | undefined;
  private readonly store: TaskStore;
  private readonly leaseMs: number;
  private readonly onError: (error: unknown) => void;
  private readonly running = new Set<RunningTask>();
  private timer: ReturnType<typeof setInterval> | undefined;
  private first: Promise<void> | undefined;
  /** The last beat failed: the next failure is not reported again (one report per outage). */
  private down = false;
  private stopped = false;

  constructor(store: TaskStore, leaseMs: number, onError: (error: unknown) => void) {
    if (!(leaseMs > 0)) throw new RangeError("tasks.leaseMs must be a positive number of milliseconds");
    this.store = store;
    this.leaseMs = leaseMs;
    this.onError = onError;
    this.id = store.heartbeat && store.orphans ? randomUUID() : undefined;
  }

  /** Starts the heartbeat (with a store that keeps them); resolves once the store has heard the first. */
  start(): Promise<void> {
    if (this.id === undefined || this.stopped) return Promise.resolve();
    if (!this.timer) {
      this.timer = setInterval(() => {
        this.tick().catch(this.onError);
      }, this.leaseMs / 3);
      this.timer.unref?.();
    }
    this.first ??= this.tick(true).catch((error: unknown) => {
      this.first = undefined; // the next task asks again
      throw error;
    });
    return this.first;
  }

  /** The number of tasks this node works on. */
  get size(): number {
    return this.running.size;
  }

  add(run: RunningTask): void {
    this.running.add(run);
  }

  delete(run: RunningTask): void {
    this.running.delete(run);
  }

  /** The node stops: its running tasks fail with `message`, and its heartbeat ends. */
  async stop(message: string): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    const runs = [...this.running];
    this.running.clear();
    await Promise.all(runs.map((run) => run.fail(message).catch(this.onError)));
  }

  private async tick(rethrow = false): Promise<void> {
    if (this.stopped) return;
    try {
      await this.store.heartbeat?.(this.id as string, this.leaseMs);
      await this.failOrphans();
      this.down = false;
    } catch (error) {
      if (rethrow) throw error;
      if (!this.down) this.onError(error);
      this.down = true;
    }
  }

  private async failOrphans(): Promise<void> {
    const orphans = (await this.store.orphans?.()) ?? [];
    const message = `The server node running this task stopped (no heartbeat for ${this.leaseMs} ms), so the task did not finish`;
    for (const task of orphans) {
      // Terminal tasks never change: of several nodes doing this at once, one wins.
      await this.store.update(task.taskId, {
        status: "failed",
        statusMessage: message,
        error: { code: ErrorCode.InternalError, message },
      });
    }
  }
}
