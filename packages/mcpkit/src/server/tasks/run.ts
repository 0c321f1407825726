import { randomUUID } from "node:crypto";
import { ErrorCode, McpError } from "../../jsonrpc/errors.js";
import type { JsonObject } from "../../jsonrpc/types.js";
import { isTerminal, relatedTaskMeta, type TaskError, toLegacyTask } from "../../protocol/tasks.js";
import type { CreateTaskResult } from "../../protocol/types/server-results.js";
import type { ClientPeer } from "../dispatch/client-peer.js";
import type { TaskOptions } from "../registry/tool.js";
import { cappedTtl, type TaskSettings } from "./settings.js";
import { TaskLimitError, type TaskRecord } from "./store.js";
import type { RunningTask } from "./task-node.js";
import { createTaskResult, plainTask } from "./wire.js";

const PREFIX: Record<string, string> = {
  "elicitation/create": "elicit",
  "sampling/createMessage": "sample",
  "roots/list": "roots",
};

export interface TaskRunInit {
  settings: TaskSettings;
  peer: ClientPeer;
  method: string;
  /** Whose the task is (owner.ts). */
  owner: string | undefined;
  /** Whom it counts against for maxTasksPerClient (owner.ts). */
  client: string;
  tool: TaskOptions;
  /** 2025-11-25: the `task.ttl` the client asked for. */
  requestedTtlMs?: number | undefined;
  onError(error: unknown): void;
}

/**
 * One call running as a task on this node: it writes the task's progress to the store and
 * hears, through the store, what other nodes do to it (answers, cancellation). The handler
 * reaches it through its ctx once `start` has stored the task.
 */
export class TaskRun implements RunningTask {
  readonly taskId = randomUUID();
  started = false;
  readonly whenStarted: Promise<void>;
  private resolveStarted!: () => void;
  private readonly init: TaskRunInit;
  private readonly wire: "legacy" | "extension";
  private readonly controller = new AbortController();
  private record: TaskRecord | undefined;
  private starting: Promise<void> | undefined;
  private stopWatching: (() => void) | undefined;
  private readonly waiters = new Map<string, { resolve(answer: unknown): void; reject(error: unknown): void }>();
  private readonly counters = new Map<string, number>();
  private lastNotified = "";
  /** The handler returned or threw: its outcome is being stored. */
  private finished = false;

  constructor(init: TaskRunInit) {
    this.init = init;
    this.wire = init.peer.rules.tasks ?? "extension";
    this.whenStarted = new Promise((resolve) => {
      this.resolveStarted = resolve;
    });
  }

  /** Aborted when the task is cancelled (through any node). */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Stores the task; the request's answer (CreateTaskResult) may be sent once this resolves. */
  start(): Promise<void> {
    this.starting ??= this.create();
    return this.starting;
  }

  private async create(): Promise<void> {
    const { settings, tool } = this.init;
    const asked = this.init.requestedTtlMs;
    const ttlMs = cappedTtl(asked ?? (tool.ttlMs === undefined ? settings.ttlMs : tool.ttlMs), settings.maxTtlMs);
    // With a shared store, the store hears this node is alive before it holds a task of it.
    await settings.node.start();
    const now = settings.now();
    const record: TaskRecord = {
      taskId: this.taskId,
      method: this.init.method,
      status: "working",
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs: ttlMs === null ? null : Math.max(1, Math.round(ttlMs)),
      pollIntervalMs: Math.max(1, Math.round(tool.pollIntervalMs ?? settings.pollIntervalMs)),
      ...(this.init.owner !== undefined && { owner: this.init.owner }),
      ...(settings.node.id !== undefined && { node: settings.node.id }),
    };
    try {
      await settings.store.create(record, { client: this.init.client, max: settings.maxTasksPerClient });
    } catch (error) {
      if (error instanceof TaskLimitError) throw tooManyTasks(error.limit);
      throw error;
    }
    settings.node.add(this);
    this.record = record;
    this.stopWatching = settings.store.watch(this.taskId, (task) => this.heard(task));
    this.started = true;
    this.resolveStarted();
  }

  /** The answer to the request that created the task. */
  createResult(): CreateTaskResult {
    if (!this.record) throw new Error("The task has not started");
    return createTaskResult(this.record, this.wire);
  }

  /** Sets the task's statusMessage (what a client shows while it waits). */
  status(message: string): void {
    if (!this.started) return;
    this.init.settings.store.update(this.taskId, { statusMessage: message }).catch(this.init.onError);
  }

  /**
   * A request to the client made by the handler. 2026-07-28: it becomes one of the task's
   * inputRequests, answered by tasks/update (on any node). 2025-11-25: it is sent on the
   * session that created the task, tagged with the task, while the task is input_required.
   */
  async input(method: string, params: JsonObject, key: string | undefined): Promise<JsonObject> {
    const { store } = this.init.settings;
    if (this.signal.aborted) throw this.signal.reason;
    if (this.wire === "legacy") {
      await store.update(this.taskId, { status: "input_required" });
      try {
        const meta = { ...(params._meta as JsonObject | undefined), ...relatedTaskMeta(this.taskId) };
        return await this.init.peer.ask(method, { ...params, _meta: meta }, { signal: this.signal });
      } finally {
        await store.update(this.taskId, { status: "working" }).catch(this.init.onError);
      }
    }
    const prefix = PREFIX[method] ?? method;
    const n = (this.counters.get(prefix) ?? 0) + 1;
    this.counters.set(prefix, n);
    const name = key ?? `${prefix}-${n}`;
    const answer = new Promise<unknown>((resolve, reject) => this.waiters.set(name, { resolve, reject }));
    await store.update(this.taskId, { ask: { [name]: { method, params } } });
    return (await answer) as JsonObject;
  }

  /** The handler finished: the task completes with its result, or fails with its JSON-RPC error. */
  async finish(outcome: { ok: true; value: object } | { ok: false; error: unknown }): Promise<void> {
    const { store, maxResultBytes } = this.init.settings;
    this.finished = true;
    try {
      const size = outcome.ok ? Buffer.byteLength(JSON.stringify(outcome.value)) : 0;
      if (outcome.ok && size <= maxResultBytes)
        await store.update(this.taskId, { status: "completed", result: { ...outcome.value } });
      else {
        const error = outcome.ok ? resultTooLarge(size, maxResultBytes) : taskError(outcome.error, this.init.onError);
        await store.update(this.taskId, { status: "failed", error, statusMessage: error.message });
      }
    } catch (error) {
      this.init.onError(error);
    } finally {
      this.stop();
    }
  }

  /** The node stops (or gives the task up): the task fails with `message`, its handler is aborted. */
  async fail(message: string): Promise<void> {
    const error = { code: ErrorCode.InternalError, message };
    if (!this.signal.aborted) this.controller.abort(new McpError(error.code, message));
    try {
      await this.init.settings.store.update(this.taskId, { status: "failed", error, statusMessage: message });
    } finally {
      this.stop();
    }
  }

  /** Cancels the task as tasks/cancel would: its handler hears it through the store. */
  async cancel(message: string): Promise<void> {
    await this.init.settings.store.update(this.taskId, { status: "cancelled", statusMessage: message });
  }

  /**
   * A notification about the task to the session that created it (2025-11-25). A closed
   * session drops it silently (Connection.notify); anything else that fails is reported.
   */
  notify(method: string, params: object): void {
    try {
      this.init.peer.notify(method, params);
    } catch (error) {
      this.init.onError(error);
    }
  }

  private heard(task: TaskRecord): void {
    // Cancelled by the client, or failed by another node (this one was taken for dead):
    // the handler's work is no longer wanted.
    if (isTerminal(task.status) && !this.finished && !this.signal.aborted)
      this.controller.abort(
        task.status === "cancelled"
          ? new Error("The task was cancelled")
          : new Error(`The task ended elsewhere: ${task.statusMessage ?? task.status}`),
      );
    for (const [key, waiter] of this.waiters) {
      if (!task.inputResponses || !Object.hasOwn(task.inputResponses, key)) continue;
      this.waiters.delete(key);
      waiter.resolve(task.inputResponses[key]);
      this.init.settings.store.update(this.taskId, { take: [key] }).catch(this.init.onError);
    }
    this.notifyStatus(task);
    if (isTerminal(task.status)) this.stop();
  }

  /** 2025-11-25 notifications/tasks/status, on the session that created the task, while it lasts. */
  private notifyStatus(task: TaskRecord): void {
    if (this.wire !== "legacy") return;
    const seen = `${task.status}\n${task.statusMessage ?? ""}`;
    if (seen === this.lastNotified) return;
    this.lastNotified = seen;
    this.notify("notifications/tasks/status", toLegacyTask(plainTask(task)));
  }

  private stop(): void {
    this.init.settings.node.delete(this);
    this.stopWatching?.();
    this.stopWatching = undefined;
    for (const waiter of this.waiters.values()) waiter.reject(this.signal.reason ?? new Error("The task ended"));
    this.waiters.clear();
  }
}

/** The Tasks extension §Security Considerations asks for bounds; this is the count one. */
function tooManyTasks(limit: number): McpError {
  return new McpError(
    ErrorCode.InvalidRequest,
    `Too many tasks: this client already has ${limit} stored, the most this server keeps per client (running or finished, each until its TTL ends). Fetch their results and wait for them to expire, or call without a task.`,
    { reason: "too-many-tasks", limit },
  );
}

function resultTooLarge(size: number, limit: number) {
  const message = `The task's result is ${size} bytes of JSON, more than the ${limit} this server stores for a task`;
  return { code: ErrorCode.InternalError, message, data: { reason: "result-too-large", size, limit } };
}

function taskError(error: unknown, onError: (error: unknown) => void): TaskError {
  if (error instanceof McpError) {
    const out: TaskError = { code: error.code, message: error.message };
    if (error.data !== undefined) out.data = error.data;
    return out;
  }
  // Like any request's failure: the peer sees no internals.
  onError(error);
  return { code: -32603, message: "Internal error" };
}
