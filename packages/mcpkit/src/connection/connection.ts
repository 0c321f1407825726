import { ErrorCode, McpError } from "../jsonrpc/errors.js";
import { answerAs, asJson, failure, messageProblem, notification, readableId, success } from "../jsonrpc/message.js";
import type {
  JsonObject,
  JsonRpcErrorObject,
  JsonRpcMessage,
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcResponse,
  RequestId,
} from "../jsonrpc/types.js";
import type { MessageInfo, Transport } from "../transports/transport.js";
import { type Collect, runBatch } from "./batch.js";
import {
  type ConnectionOptions,
  DEFAULT_TIMEOUT_MS,
  type RequestOptions,
  type SentRequest,
} from "./connection-options.js";
import { ConnectionSink, type SinkTarget } from "./connection-sink.js";
import { errorObjectOf } from "./error-answer.js";
import { InboundRequest } from "./inbound-request.js";
import { OutboundRequest } from "./outbound-request.js";
import { OutboundRequests } from "./outbound-requests.js";

/**
 * One JSON-RPC peer over one transport: correlates our requests with their responses,
 * runs the peer's requests through `onRequest`, and implements the utilities every MCP
 * peer shares (basic/utilities: cancellation, progress; request timeouts).
 * Client and server both build on it; it knows no MCP feature methods.
 */

const abortError = (message: string): Error => Object.assign(new Error(message), { name: "AbortError" });

export class Connection implements SinkTarget {
  readonly transport: Transport;
  private readonly options: ConnectionOptions;
  /** Our requests awaiting answers (and cancelled ones whose late result is wanted). */
  private readonly outbound = new OutboundRequests();
  // Made when first needed and dropped when empty: an idle session holds none.
  private inbound: Map<RequestId, InboundRequest> | undefined;
  /**
   * The request whose handler is running right now, before it is known to answer later:
   * one that answers at once never enters `inbound` (no map made and dropped per call).
   */
  private running: InboundRequest | undefined;
  private nextId = 0;
  private closedReason: Error | undefined;
  private closed = false;

  constructor(transport: Transport, options: ConnectionOptions) {
    this.transport = transport;
    this.options = options;
  }

  async start(): Promise<void> {
    await this.transport.start(new ConnectionSink(this));
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /**
   * Sends a request and resolves with its result, or rejects with McpError. `R` is the
   * result type the method's specification gives and `params` any JSON-shaped object: the
   * one unchecked step between JSON and typed values is taken here, so callers need no cast.
   */
  request<R extends object = JsonObject>(method: string, params?: object, options?: RequestOptions): Promise<R> {
    return answerAs<R>(this.sendRequest(method, params && asJson(params), options).response);
  }

  /**
   * Sends a request and tells the id it was given, for callers that need it (a
   * subscriptions/listen request's id is its subscription id).
   */
  sendRequest(method: string, params?: JsonObject, options?: RequestOptions): SentRequest {
    const prefix = this.options.requestIdPrefix;
    const id: RequestId = prefix === undefined ? this.nextId++ : `${prefix}${this.nextId++}`;
    if (this.closed) return { id, response: Promise.reject(this.closedError()) };
    if (options?.signal?.aborted) return { id, response: Promise.reject(options.signal.reason) };
    let sent = params;
    if (options?.onprogress) {
      const meta = (params?._meta as JsonObject | undefined) ?? {};
      sent = { ...params, _meta: { ...meta, progressToken: id } };
    }
    const message: JsonRpcRequest =
      sent === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params: sent };
    options?.onRequestId?.(id);
    const response = new Promise<JsonObject>((resolve, reject) => {
      const entry = new OutboundRequest(method, options, resolve, reject);
      this.outbound.add(id, entry);
      this.armTimer(id, entry);
      entry.watch((reason) => this.cancelOutbound(id, reason));
      try {
        this.write(message, options?.relatedRequestId, options?.headers);
      } catch (error) {
        // Nothing was sent, so nothing will answer: fail now rather than at the timeout.
        this.outbound.forget(id);
        entry.reject(error);
      }
    });
    return { id, response };
  }

  /**
   * `params`: any JSON-shaped object (a typed notification needs no cast), as for
   * request(). `dedupeKey`: several nodes send this very notification (see SendOptions).
   */
  notify(method: string, params?: object, relatedRequestId?: RequestId, dedupeKey?: string): void {
    if (this.closed) return;
    const message = notification(method, params);
    if (dedupeKey === undefined) this.send(message, relatedRequestId);
    else {
      try {
        this.transport.send(message, { relatedRequestId, dedupeKey });
      } catch (error) {
        this.options.onError?.(error);
      }
    }
  }

  /**
   * Aborts every request still running with `reason`, without cancelling it: a handler that
   * honours its signal fails with `reason`, which is its answer (the server stopping).
   */
  stopHandlers(reason: unknown): void {
    this.running?.abandon(reason);
    for (const request of this.inbound?.values() ?? []) request.abandon(reason);
  }

  /** Closes the transport; pending calls reject and running handlers are aborted. */
  async close(): Promise<void> {
    if (this.closed) return;
    await this.transport.close();
    // Transports call sink.close themselves; this covers one that did not.
    this.handleClose();
  }

  private unreadableId(): null | undefined {
    return this.options.unreadableIdNull?.() ? null : undefined;
  }

  private invalidRequest(value: unknown, problem: string): JsonRpcResponse {
    return failure(readableId(value) ?? this.unreadableId(), {
      code: ErrorCode.InvalidRequest,
      message: `Invalid request: ${problem}`,
    });
  }

  private write(
    message: JsonRpcMessage | JsonRpcMessage[],
    relatedRequestId: RequestId | undefined,
    headers?: Record<string, string>,
  ): void {
    if (relatedRequestId === undefined && headers === undefined) this.transport.send(message);
    else this.transport.send(message, { relatedRequestId, headers });
  }

  /** Sends a response or notification; a transport that cannot send is reported, not thrown. */
  private send(message: JsonRpcMessage | JsonRpcMessage[], relatedRequestId?: RequestId): void {
    try {
      this.write(message, relatedRequestId);
    } catch (error) {
      this.options.onError?.(error);
    }
  }

  /** @internal A decoded frame from the transport. */
  receive(value: unknown, info: MessageInfo | undefined): void {
    if (Array.isArray(value)) {
      this.receiveBatch(value, info);
      return;
    }
    const problem = messageProblem(value);
    if (problem !== undefined) {
      this.send(this.invalidRequest(value, problem));
      return;
    }
    const message = value as JsonRpcMessage;
    if ("method" in message) {
      if ("id" in message) this.receiveRequest(message as JsonRpcRequest, info, undefined);
      else this.receiveNotification(message, info);
    } else {
      this.receiveResponse(message);
    }
  }

  /** JSON-RPC 2.0 §6; only the 2025-03-26 revision allows batches in MCP. */
  private receiveBatch(values: unknown[], info: MessageInfo | undefined): void {
    if (!this.options.batchesAllowed?.()) {
      this.send(this.invalidRequest(values, "JSON-RPC batches are not supported by the negotiated protocol revision"));
      return;
    }
    if (values.length === 0) {
      this.send(this.invalidRequest(values, "empty batch"));
      return;
    }
    const answered = runBatch(values, {
      request: (request, collect) => this.receiveRequest(request, info, collect),
      other: (message) => this.receive(message, info),
      invalid: (value, problem) => this.invalidRequest(value, problem),
    });
    // send reports its own failure.
    answered?.then(
      (batch) => {
        if (batch.length > 0 && !this.closed) this.send(batch);
      },
      (error: unknown) => this.options.onError?.(error),
    );
  }

  /**
   * Runs one request. With `collect` (batches) the response is handed back instead of
   * sent; `undefined` means no response is due (the request was cancelled).
   */
  private receiveRequest(request: JsonRpcRequest, info: MessageInfo | undefined, collect: Collect | undefined): void {
    const id = request.id;
    if (this.inbound?.has(id) || this.running?.id === id) {
      const message = `Invalid request: id ${JSON.stringify(id)} is already in use by a request in progress`;
      this.reply(id, failure(id, { code: ErrorCode.InvalidRequest, message }), collect);
      return;
    }
    const inbound = new InboundRequest(request, info);
    const outer = this.running;
    this.running = inbound;
    let outcome: object | Promise<object>;
    try {
      outcome = this.options.onRequest(inbound);
    } catch (error) {
      this.settle(inbound, undefined, error, collect);
      return;
    } finally {
      this.running = outer;
    }
    // Answered at once (a handler with nothing to wait for): no closures, no promise.
    if (!(outcome instanceof Promise)) {
      this.settle(inbound, outcome, undefined, collect);
      return;
    }
    this.inbound ??= new Map();
    this.inbound.set(id, inbound);
    outcome.then(
      (result) => this.settle(inbound, result, undefined, collect),
      (error) => this.settle(inbound, undefined, error, collect),
    );
  }

  private settle(
    inbound: InboundRequest,
    result: object | undefined,
    error: unknown,
    collect: Collect | undefined,
  ): void {
    if (this.inbound?.delete(inbound.id) && this.inbound.size === 0) this.inbound = undefined;
    // basic/utilities/cancellation: no response is sent for a cancelled request.
    if (inbound.cancelled || this.closed) this.reply(inbound.id, undefined, collect);
    else if (result !== undefined)
      this.reply(inbound.id, success(inbound.id, result), collect); // JSON-shaped by contract (onRequest)
    else this.reply(inbound.id, failure(inbound.id, this.errorObject(error)), collect);
  }

  /** Sends a response, or hands it to the batch collecting it; `undefined`: none is due. */
  private reply(id: RequestId, response: JsonRpcResponse | undefined, collect: Collect | undefined): void {
    if (collect) collect(response);
    else if (response) this.send(response, id);
  }

  private errorObject(error: unknown): JsonRpcErrorObject {
    return errorObjectOf(error, (e) => this.options.onError?.(e));
  }

  private receiveNotification(notification: JsonRpcNotification, info: MessageInfo | undefined): void {
    switch (notification.method) {
      case "notifications/cancelled":
        this.receiveCancelled(notification.params);
        return;
      case "notifications/progress":
        this.receiveProgress(notification.params);
        return;
      default:
        this.options.onNotification?.(notification, info);
    }
  }

  private receiveCancelled(params: JsonObject | undefined): void {
    const id = params?.requestId;
    if (typeof id !== "string" && typeof id !== "number") return;
    const inbound = this.inbound?.get(id);
    // basic/lifecycle: the initialize request cannot be cancelled.
    if (!inbound || inbound.method === "initialize") return;
    const reason = typeof params?.reason === "string" ? params.reason : "Cancelled by the peer";
    inbound.cancel(abortError(reason));
    this.transport.unanswered?.(id);
  }

  private receiveProgress(params: JsonObject | undefined): void {
    const token = params?.progressToken;
    if (typeof token !== "number" && typeof token !== "string") return;
    const entry = this.outbound.get(token);
    if (entry?.progress(params as JsonObject)) this.armTimer(token, entry);
  }

  private receiveResponse(response: JsonRpcResponse): void {
    const id = response.id;
    if (id === null || id === undefined) {
      // An error about something we sent that the peer could not read: said as such, since
      // the peer's own message ("Parse error") reads as if this side failed to parse.
      if ("error" in response) {
        const { code, message, data } = response.error;
        this.options.onError?.(
          new McpError(code, `The peer could not read a message from this side: ${message} (${code})`, data),
        );
      }
      return;
    }
    const entry = this.outbound.get(id);
    if (!entry) {
      // A result that crossed its request's cancellation, for a caller that wants it; else
      // not ours (or already cancelled): ids never cross connections.
      const late = this.outbound.takeLate(id);
      if (late && "result" in response) late(response.result);
      return;
    }
    this.outbound.forget(id);
    if ("result" in response) entry.resolve(response.result);
    else entry.reject(McpError.fromObject(response.error));
  }

  private armTimer(id: RequestId, entry: OutboundRequest): void {
    entry.arm(this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS, (error) => this.cancelOutbound(id, error));
  }

  private cancelOutbound(id: RequestId, reason: unknown): void {
    const entry = this.outbound.get(id);
    if (!entry) return;
    this.outbound.forget(id);
    // basic/utilities/cancellation: tell the peer; `initialize` is never cancelled.
    if (entry.method !== "initialize") {
      const text = reason instanceof Error ? reason.message : typeof reason === "string" ? reason : "Request cancelled";
      this.notify("notifications/cancelled", { requestId: id, reason: text }, entry.options?.relatedRequestId);
    }
    const onLate = entry.options?.onLateResult;
    if (onLate) this.outbound.keepForLate(id, onLate);
    entry.reject(reason ?? abortError("Request cancelled"));
  }

  private closedError(): McpError {
    const why = this.closedReason ? `: ${this.closedReason.message}` : "";
    return new McpError(ErrorCode.ConnectionClosed, `Connection closed${why}`);
  }

  /** @internal A frame the transport could not decode: answered with the unreadable id. */
  refuseUnreadable(error: JsonRpcErrorObject): void {
    this.send(failure(this.unreadableId(), error));
  }

  /** @internal The transport closed. */
  transportClosed(reason?: Error): void {
    this.handleClose(reason);
  }

  private handleClose(reason?: Error): void {
    if (this.closed) return;
    this.closed = true;
    this.closedReason = reason;
    // Built only when something waits for it: most connections close with nothing pending.
    const pending = this.outbound.drain();
    const inbound = this.inbound;
    const running = this.running;
    this.inbound = undefined;
    if (pending || inbound || running) {
      const error = this.closedError();
      for (const entry of pending?.values() ?? []) entry.reject(error);
      running?.cancel(error);
      for (const request of inbound?.values() ?? []) request.cancel(error);
    }
    this.options.onClose?.(reason);
  }
}
