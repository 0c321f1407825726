import type { JsonRpcMessage, RequestId } from "../../../jsonrpc/types.js";
import { type HttpReply, jsonReply } from "../../http/exchange.js";
import { jsonRpcErrorReply } from "../../http/responses.js";
import { formatSse, SseConnection } from "../../http/sse.js";
import type { MessageInfo, SendOptions, Transport, TransportSink } from "../../transport.js";
import type { EventStore } from "./event-store.js";
import { attachReplaying, clusterStreamOwner, clusterStreamPrefix, orphanedReply, replayStored } from "./replay.js";
import type { SessionTransportOptions } from "./session-transport-options.js";
import { isResponse, Stream, type StreamOwner, sessionGone, sseReply } from "./stream.js";
import { StreamInfo } from "./stream-info.js";
import { StreamTable } from "./stream-table.js";

export type { SessionTransportOptions } from "./session-transport-options.js";

const toStderr = (error: unknown) =>
  process.stderr.write(`mcpkit: a Streamable HTTP stream failed: ${String(error)}\n`);

/** How many messages for the GET stream are kept for a client that has not opened it yet. */
const MAX_EARLY_MESSAGES = 100;

/**
 * The server side of one Streamable HTTP session, as a Transport: messages arrive from
 * POSTs, and each message the connection sends is routed to the stream of the request it
 * answers or relates to, else to the standalone GET stream (transports §Multiple Connections:
 * never to more than one).
 */
export class HttpSessionTransport implements Transport, StreamOwner {
  readonly sessionId: string | undefined;
  private sink: TransportSink | undefined;
  private readonly options: SessionTransportOptions;
  private readonly streams = new StreamTable();
  private standalone: Stream | undefined;
  /** Messages for the GET stream sent before the client first opened it, oldest first. */
  private early: JsonRpcMessage[] | undefined;
  /** The stream of the POST being dispatched: where answers without a readable id go. */
  private capture: Stream | undefined;
  private closed = false;
  /**
   * Closing keeps the stored streams resumable: in a cluster (sharedStreams), a session
   * closes on one node while others may serve it; only `discard` (DELETE) drops them.
   */
  private keepStoredStreams: boolean;
  private settledWaiters: (() => void)[] | undefined;
  lastActivity = Date.now();
  /** POSTs that carried requests (initialize is the first): a session at 1 was never used. */
  requestCount = 0;

  constructor(sessionId: string | undefined, options: SessionTransportOptions) {
    this.options = options;
    this.sessionId = sessionId;
    this.keepStoredStreams = options.sharedStreams === true;
  }

  start(sink: TransportSink): void {
    this.sink = sink;
  }

  /** True while a request is being answered. */
  get answering(): boolean {
    return this.streams.answering;
  }

  /** Resolves once every request received so far has been answered and its stream ended. */
  settled(): Promise<void> {
    if (!this.streams.unsettled) return Promise.resolve();
    this.settledWaiters ??= [];
    const waiters = this.settledWaiters;
    return new Promise((resolve) => waiters.push(resolve));
  }

  /** True while a request is being answered or a stream is connected. */
  get busy(): boolean {
    if (this.streams.answering) return true;
    for (const stream of this.streams.all()) if (stream.connection?.isOpen) return true;
    return false;
  }

  /**
   * Handles a POST body: 202, a JSON answer, or an SSE stream; the reply itself when the
   * requests were answered while they were dispatched (a handler with nothing to wait
   * for), else a promise of it. `onAbort` registers for the HTTP request's end: with
   * cancelOnDisconnect, a client that goes away before any answer cancels its requests too.
   */
  post(
    value: unknown,
    requestIds: readonly RequestId[],
    info: MessageInfo,
    onAbort?: (listener: () => void) => void,
  ): HttpReply | Promise<HttpReply> {
    this.lastActivity = Date.now();
    const sink = this.sink;
    if (!sink || this.closed) return sessionGone();
    if (requestIds.length === 0) {
      sink.message(value, info);
      return { status: 202, headers: {} };
    }
    this.requestCount++;
    const stream = this.openStream(requestIds, false);
    if (onAbort && this.options.cancelOnDisconnect) {
      onAbort(() => {
        if (!stream.undecided) return; // answered: its SSE connection reports its own end
        stream.decide(sessionGone());
        this.abandon(stream);
      });
    }
    this.capture = stream;
    try {
      sink.message(value, this.options.eventStore ? new StreamInfo(info, this, stream) : info);
    } finally {
      this.capture = undefined;
    }
    return stream.reply();
  }

  /** Handles a GET: the standalone stream, or the resumption of one after Last-Event-ID. */
  async get(lastEventId: string | null): Promise<HttpReply> {
    this.lastActivity = Date.now();
    if (this.closed) return sessionGone();
    const store = this.options.eventStore;
    if (lastEventId && store) {
      const streamId = await store.streamOf(lastEventId);
      const stream = streamId === undefined ? undefined : this.streams.get(streamId);
      const owner =
        !stream && streamId !== undefined && this.options.sharedStreams && this.sessionId !== undefined
          ? clusterStreamOwner(this.sessionId, streamId)
          : undefined;
      if (owner) return this.resumeElsewhere(owner, lastEventId, store);
      if (!stream) {
        return jsonRpcErrorReply(400, -32600, "Last-Event-ID names no stream of this session that can be resumed");
      }
      return this.resume(stream, lastEventId, store);
    }
    if (this.standalone?.connection?.isOpen) {
      return jsonRpcErrorReply(409, -32600, "This session already has an open GET stream");
    }
    this.standalone ??= this.openStream([], true);
    const stream = this.standalone;
    const connection = this.connect(stream);
    stream.enqueue(() => this.prime(stream, connection));
    const early = this.early;
    this.early = undefined;
    for (const message of early ?? []) this.deliver(stream, message);
    return sseReply(connection);
  }

  send(message: JsonRpcMessage | JsonRpcMessage[], options?: SendOptions): void {
    if (this.closed) return;
    const stream =
      this.streams.route(message, options?.relatedRequestId, this.capture, this.standalone) ?? this.unrouted(message);
    // Only a shared store sees the same event from several nodes: keys cost memory elsewhere.
    if (stream) this.deliver(stream, message, this.options.sharedStreams ? options?.dedupeKey : undefined);
  }

  /** A notification or request for the GET stream while there is none. */
  private unrouted(message: JsonRpcMessage | JsonRpcMessage[]): Stream | undefined {
    if (Array.isArray(message) || isResponse(message)) return undefined;
    if (this.options.sharedStreams && this.options.eventStore) {
      // In a cluster, the standalone stream is shared: stored here even with no GET open
      // on this node, so the client finds it on whichever node it resumes.
      this.standalone = this.openStream([], true);
      this.standalone.sse = true;
      return this.standalone;
    }
    // The client may open it just after initialize, racing the server's first list change:
    // kept until it does, the newest MAX_EARLY_MESSAGES at most.
    this.early ??= [];
    this.early.push(message);
    if (this.early.length > MAX_EARLY_MESSAGES) this.early.shift();
    return undefined;
  }

  /**
   * basic/utilities/cancellation: a cancelled request gets no response, so once nothing
   * else is owed on its POST's stream, the stream ends (as SSE without an answer, if it had
   * not begun) and the session is no longer busy with it.
   */
  unanswered(requestId: RequestId): void {
    const stream = this.streams.carrying(requestId);
    if (!stream?.release(requestId)) return;
    this.streams.answered(requestId);
    if (stream.owedCount > 0) return;
    stream.enqueue(async () => {
      if (stream.finished) return;
      if (stream.undecided) await this.prime(stream, this.connect(stream, true));
      this.finish(stream);
    });
  }

  /** Closes this node's copy of a shared session; another node may still serve it and its streams. */
  evict(): Promise<void> {
    this.keepStoredStreams = true;
    return this.close();
  }

  /** Closes the session for good (DELETE): its stored streams are dropped too. */
  discard(): Promise<void> {
    this.keepStoredStreams = false;
    return this.close();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const store = this.keepStoredStreams ? undefined : this.options.eventStore;
    for (const stream of this.streams.all()) {
      stream.decide(sessionGone());
      stream.connection?.close();
      if (store && stream.named) store.dropStream(stream.id).catch(this.report);
    }
    this.streams.clear();
    this.early = undefined;
    const waiters = this.settledWaiters ?? [];
    this.settledWaiters = undefined;
    for (const resolve of waiters) resolve();
    this.sink?.close();
    if (this.sessionId !== undefined) this.options.onClosed?.(this.sessionId);
  }

  private openStream(requestIds: readonly RequestId[], standalone: boolean): Stream {
    const prefix =
      this.options.sharedStreams && this.sessionId !== undefined
        ? clusterStreamPrefix(this.sessionId, standalone, this.options.node)
        : undefined;
    const stream = new Stream(requestIds, standalone, this, prefix);
    this.streams.add(stream, requestIds);
    return stream;
  }

  /**
   * A queued task of `stream` failed (the store refused an append or a replay): reported,
   * and the client is not left waiting on a silent stream.
   */
  streamFailed(stream: Stream, error: unknown): void {
    this.report(error);
    stream.fail();
  }

  private deliver(stream: Stream, message: JsonRpcMessage | JsonRpcMessage[], dedupeKey?: string): void {
    let answered = false;
    if (Array.isArray(message)) {
      for (const m of message) if (this.streams.settle(stream, m)) answered = true;
    } else answered = this.streams.settle(stream, message);
    const final = answered && !stream.standalone && stream.owedCount === 0;
    if (final && stream.undecided && stream.idle) {
      // Answered before anything else was sent: one JSON body, no stream needed.
      this.answerJson(stream, message);
      return;
    }
    stream.enqueue(() => {
      if (stream.undecided && final) {
        this.answerJson(stream, message);
        return;
      }
      return this.streamOut(stream, message, final, dedupeKey);
    });
  }

  /** The POST's answer as one JSON body. */
  private answerJson(stream: Stream, message: JsonRpcMessage | JsonRpcMessage[]): void {
    const answer = Array.isArray(message) ? undefined : this.options.answer?.(message);
    stream.decide(jsonReply(answer?.status ?? 200, JSON.stringify(message), answer?.headers));
    this.finish(stream);
  }

  private async streamOut(
    stream: Stream,
    message: JsonRpcMessage | JsonRpcMessage[],
    final: boolean,
    dedupeKey?: string,
  ): Promise<void> {
    const store = this.options.eventStore;
    try {
      if (stream.undecided) await this.prime(stream, this.connect(stream, true));
      const id = store ? await store.append(stream.id, message, dedupeKey) : undefined;
      stream.connection?.write(formatSse({ id, data: JSON.stringify(message) }));
    } finally {
      // Even when the store refused it, the last answer ends the stream: nothing is owed any more.
      if (final) this.finish(stream);
    }
  }

  /** Opens an SSE connection for the stream; for an undecided POST, answers it with the stream. */
  private connect(stream: Stream, answerPost = false): SseConnection {
    const connection: SseConnection = new SseConnection(
      () => this.disconnected(stream, connection),
      this.options.keepAliveMs,
    );
    stream.connection = connection;
    stream.sse = true;
    if (answerPost) stream.decide(sseReply(connection));
    return connection;
  }

  /** The client's connection for a stream went away. */
  private disconnected(stream: Stream, connection: SseConnection): void {
    if (stream.connection !== connection) return;
    stream.connection = undefined;
    this.abandon(stream);
  }

  /** streamable-http §Cancellation (2026-07-28): the client left, so its requests are cancelled. */
  private abandon(stream: Stream): void {
    if (!this.options.cancelOnDisconnect || stream.finished) return;
    const owed = stream.releaseAll();
    for (const id of owed) this.streams.answered(id);
    this.finish(stream);
    for (const requestId of owed) {
      this.sink?.message({
        jsonrpc: "2.0",
        method: "notifications/cancelled",
        params: { requestId, reason: "The client closed the response stream" },
      });
    }
  }

  /** transports §Sending Messages: an event id and empty data first, so the client can resume. */
  private async prime(stream: Stream, connection: SseConnection): Promise<void> {
    const store = this.options.eventStore;
    if (!store) return;
    const id = await store.append(stream.id, undefined);
    connection.write(formatSse({ id, retry: this.options.retryMs, data: "" }));
  }

  /** transports §Sending Messages: close the connection, not the stream; the client polls (MessageInfo.closeStream). */
  closeConnection(stream: Stream, retryMs = this.options.retryMs): void {
    stream.enqueue(async () => {
      if (stream.finished) return;
      if (stream.undecided) await this.prime(stream, this.connect(stream, true));
      const connection = stream.connection;
      connection?.write(formatSse({ retry: retryMs }));
      connection?.close();
      if (stream.connection === connection) stream.connection = undefined;
    });
  }

  private resume(stream: Stream, lastEventId: string, store: EventStore): HttpReply {
    const connection: SseConnection = new SseConnection(
      () => this.disconnected(stream, connection),
      this.options.keepAliveMs,
    );
    attachReplaying(stream, connection, lastEventId, store);
    return sseReply(connection);
  }

  /** Where failures go: the options' onError, shared by every session (no closure per session). */
  private get report(): (error: unknown) => void {
    return this.options.onError ?? toStderr;
  }

  /**
   * Resumes a stream another node wrote (it died, or the balancer sent the client here).
   * The standalone stream continues here: what was stored after the client's last event is
   * replayed, then this node's standalone stream carries on live. A POST's stream is
   * replayed as far as stored and closed (the client polls again), or, if its node died,
   * answered with what it stored or a 410.
   */
  private async resumeElsewhere(
    owner: { standalone: true } | { standalone: false; node: string },
    lastEventId: string,
    store: EventStore,
  ): Promise<HttpReply> {
    if (!owner.standalone) {
      const { nodeAlive } = this.options;
      if (owner.node && nodeAlive && !(await nodeAlive(owner.node)))
        return orphanedReply(lastEventId, store, this.options.keepAliveMs);
      return replayStored(lastEventId, store, this.options, this.report);
    }
    if (this.standalone?.connection?.isOpen) {
      return jsonRpcErrorReply(409, -32600, "This session already has an open GET stream");
    }
    this.standalone ??= this.openStream([], true);
    return this.resume(this.standalone, lastEventId, store);
  }

  private finish(stream: Stream): void {
    stream.finished = true;
    stream.connection?.close();
    stream.connection = undefined;
    if (this.settledWaiters && !this.streams.unsettled) {
      const waiters = this.settledWaiters;
      this.settledWaiters = undefined;
      for (const resolve of waiters) resolve();
    }
    const store = this.options.eventStore;
    if (!store || !stream.sse) {
      this.streams.drop(stream);
      return;
    }
    const forgotten = this.streams.keepFinished(stream, this.options.maxFinishedStreams ?? 100);
    if (forgotten !== undefined) store.dropStream(forgotten.id).catch(this.report);
  }
}
