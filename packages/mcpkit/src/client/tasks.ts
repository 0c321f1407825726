import { ErrorCode, McpError } from "../jsonrpc/errors.js";
import { fromJson } from "../jsonrpc/message.js";
import type { JsonObject } from "../jsonrpc/types.js";
import { fromAnyWire, isTerminal, type WireTask } from "../protocol/tasks.js";
import type { CallToolResult, Tool } from "../protocol/types/features.js";
import type { InputRequest, SubscriptionFilter } from "../protocol/types/modern.js";
import { type Answerer, answerServerRequest } from "./answer.js";
import type { CallOptions, ClientEra } from "./eras/client-era.js";
import type { Subscription, SubscriptionListener } from "./subscription.js";

/** What a task handle needs of its Client. */
export interface TaskHost {
  readonly era: "modern" | "legacy";
  request(method: string, params: JsonObject, options?: CallOptions): Promise<JsonObject>;
  /** Answers one of a task's input requests with the client's handlers (elicitation, sampling, roots). */
  answer(key: string, request: InputRequest, signal: AbortSignal | undefined): Promise<JsonObject>;
  on(method: string, listener: (params: JsonObject) => void): () => void;
  /** 2026-07-28: a subscriptions/listen stream for the task's status notifications, if the server takes one. */
  listen?(taskId: string, onChange: () => void): Promise<{ close(): Promise<void> } | undefined>;
}

export interface WatchOptions {
  signal?: AbortSignal;
  /** Answer input requests with the client's handlers (default true). */
  answerInput?: boolean;
  /** Polling interval when the server suggests none, ms (default 1000). */
  defaultPollMs?: number;
}

export interface TaskResultOptions extends WatchOptions {
  /** Called with each status the task reaches (status message changes included). */
  onUpdate?: (task: WireTask) => void;
}

/** Reads a tools/call answer that created a task (2026-07-28 `resultType: "task"`, 2025-11-25 `{ task }`). */
export function createdTask(result: JsonObject): WireTask | undefined {
  if (result.resultType === "task" && typeof result.taskId === "string") return fromAnyWire(result);
  const task = result.task as Record<string, unknown> | undefined;
  if (result.content === undefined && typeof task?.taskId === "string") return fromAnyWire(task);
  return undefined;
}

/**
 * A task on the server, by id: poll it (honouring its pollIntervalMs), answer what it
 * asks, cancel it, and fetch its result. Made by Client.callToolAsTask, or by Client.task
 * with an id kept from earlier (after reconnecting, or from another process).
 */
export class ToolTask {
  readonly taskId: string;
  /** The task as last seen. */
  latest: WireTask | undefined;
  private readonly host: TaskHost;
  private readonly answered = new Set<string>();

  constructor(host: TaskHost, taskId: string, seen?: WireTask) {
    this.host = host;
    this.taskId = taskId;
    this.latest = seen;
  }

  /** tasks/get */
  async get(options?: CallOptions): Promise<WireTask> {
    const task = fromAnyWire(await this.host.request("tasks/get", { taskId: this.taskId }, options));
    this.latest = task;
    return task;
  }

  /** tasks/cancel: the task ends as cancelled (cancellation is cooperative on the server). */
  async cancel(options?: CallOptions): Promise<void> {
    await this.host.request("tasks/cancel", { taskId: this.taskId }, options);
  }

  /** tasks/update (2026-07-28): answers to the task's inputRequests, by key. */
  async answer(inputResponses: Record<string, unknown>, options?: CallOptions): Promise<void> {
    await this.host.request(
      "tasks/update",
      { taskId: this.taskId, inputResponses: inputResponses as JsonObject },
      options,
    );
  }

  /**
   * Each new state of the task until it ends, polled at the interval the server suggests;
   * a status notification (2025-11-25 on the session, 2026-07-28 on a subscriptions/listen
   * stream opened for the task) polls again at once. Input requests are answered
   * with the client's handlers, each key once. Ends after the terminal state.
   */
  async *updates(options: WatchOptions = {}): AsyncGenerator<WireTask> {
    const { signal } = options;
    let wake: (() => void) | undefined;
    const stop = this.host.on("notifications/tasks/status", (params) => {
      if (params.taskId === this.taskId) wake?.();
    });
    // Status notifications (either revision) only wake the next poll early.
    const subscription = await this.host.listen?.(this.taskId, () => wake?.()).catch(() => undefined);
    let last = "";
    try {
      for (;;) {
        signal?.throwIfAborted();
        const task = await this.get(signal ? { signal } : undefined);
        const seen = JSON.stringify([task.status, task.statusMessage, Object.keys(task.inputRequests ?? {})]);
        if (seen !== last) {
          last = seen;
          yield task;
        }
        if (isTerminal(task.status)) return;
        if (task.status === "input_required" && (options.answerInput ?? true) && (await this.answerInput(task, signal)))
          continue;
        await new Promise<void>((resolve, reject) => {
          const done = () => {
            clearTimeout(timer);
            signal?.removeEventListener("abort", aborted);
            wake = undefined;
            resolve();
          };
          const aborted = () => {
            clearTimeout(timer);
            reject(signal?.reason);
          };
          const timer = setTimeout(done, task.pollIntervalMs ?? options.defaultPollMs ?? 1000);
          signal?.addEventListener("abort", aborted, { once: true });
          wake = done;
        });
      }
    } finally {
      stop();
      await subscription?.close().catch(() => undefined);
    }
  }

  /**
   * Waits for the task to end and gives the tool's result; a failed task rejects with its
   * JSON-RPC error, a cancelled one with an McpError saying so.
   */
  async result(options: TaskResultOptions = {}): Promise<CallToolResult> {
    let final: WireTask | undefined;
    for await (const task of this.updates(options)) {
      options.onUpdate?.(task);
      final = task;
    }
    if (!final) throw new Error("The task ended without a state");
    if (final.status === "failed" && final.error) {
      const { code, message, data } = final.error;
      throw new McpError(code, message, data);
    }
    if (final.status === "cancelled")
      throw new McpError(ErrorCode.InvalidRequest, `Task ${this.taskId} was cancelled`, { taskId: this.taskId });
    if (final.result) return fromJson<CallToolResult>(final.result);
    // 2025-11-25 keeps the result behind tasks/result.
    const result = await this.host.request("tasks/result", { taskId: this.taskId }, options);
    return fromJson<CallToolResult>(result);
  }

  /** Answers the input requests not answered yet; true when some were. */
  private async answerInput(task: WireTask, signal: AbortSignal | undefined): Promise<boolean> {
    const fresh = Object.entries(task.inputRequests ?? {}).filter(([key]) => !this.answered.has(key));
    if (fresh.length === 0) return false;
    for (const [key] of fresh) this.answered.add(key);
    const answers = await Promise.all(
      fresh.map(async ([key, request]) => [key, await this.host.answer(key, request as InputRequest, signal)] as const),
    );
    await this.answer(Object.fromEntries(answers), signal ? { signal } : undefined);
    return true;
  }
}

/** 2025-11-25: only tools the server lets run as tasks may be asked to (§Tool-Level Negotiation). */
export async function mayRunAsTask(era: ClientEra, tools: () => Promise<Tool[]>, name: string): Promise<boolean> {
  if (era.kind === "modern") return true;
  const caps = era.serverCapabilities.tasks as { requests?: { tools?: { call?: unknown } } } | undefined;
  if (!caps?.requests?.tools?.call) return false;
  const support = (await tools()).find((t) => t.name === name)?.execution?.taskSupport;
  return support === "optional" || support === "required";
}

/** What a Client lends its task handles. */
export interface TaskClient {
  request(method: string, params: JsonObject, options?: CallOptions): Promise<JsonObject>;
  on(method: string, listener: (params: JsonObject) => void): () => void;
  listen(filter: SubscriptionFilter, listener: SubscriptionListener): Promise<Subscription>;
}

export function taskHostOf(client: TaskClient, era: "modern" | "legacy", answerer: () => Answerer): TaskHost {
  return {
    era,
    // On 2026-07-28 every tasks/* request declares the extension.
    request: (method, params, options) => client.request(method, params, { ...options, asTask: {} }),
    answer: (key, request, signal) =>
      answerServerRequest(
        request.method,
        (request.params ?? {}) as JsonObject,
        { signal: signal ?? new AbortController().signal, requestId: key, inputKey: key },
        answerer(),
      ),
    on: (method, listener) => client.on(method, listener),
    listen: async (taskId, onChange) => {
      if (era !== "modern") return undefined;
      // The Tasks extension's filter key, beside the core ones.
      return client.listen({ taskIds: [taskId] } as SubscriptionFilter, (n) => {
        if (n.method === "notifications/tasks") onChange();
      });
    },
  };
}
