import { randomBytes } from "node:crypto";
import type { JsonRpcMessage, RequestId } from "../../../jsonrpc/types.js";
import type { HttpReply } from "../../http/exchange.js";
import { jsonRpcErrorReply } from "../../http/responses.js";
import { SSE_HEADERS, type SseConnection } from "../../http/sse.js";

/** The HTTP status and headers a JSON answer goes out with (the endpoint decides). */
export interface HttpAnswer {
  status: number;
  headers?: Record<string, string>;
}

/**
 * Stream ids: a random prefix per process and a counter, so ids stay unique across the
 * nodes sharing an event store (resuming also needs the session, so they need not be
 * secret). The prefix is drawn on first use: Workers refuse random values at module scope.
 */
let streamPrefix: string | undefined;
let streamCount = 0;

function nextStreamId(): string {
  streamPrefix ??= randomBytes(6).toString("base64url");
  return `${streamPrefix}${(++streamCount).toString(36)}`;
}

/** Whom a stream tells of a queued task that failed (its session transport). */
export interface StreamOwner {
  streamFailed(stream: Stream, error: unknown): void;
}

/**
 * One logical SSE stream (transports §Resumability): a POST's answers, or the standalone
 * GET stream. It outlives the HTTP connections that carry it; writes are queued so
 * events keep their order across store appends and reconnections. A POST's stream owes
 * its requests' answers: one request's id is kept in a field, a batch's in a set.
 */
export class Stream {
  readonly standalone: boolean;
  /** The HTTP connection carrying the stream now, if any. */
  connection: SseConnection | undefined;
  /** The POST is not answered yet: its reply is not known to be JSON or SSE (decide()). */
  undecided: boolean;
  /** It went out as SSE (so it may be resumed); a JSON answer leaves nothing to keep. */
  sse = false;
  finished = false;
  private streamId: string | undefined;
  private readonly prefix: string | undefined;
  private one: RequestId | undefined;
  private many: Set<RequestId> | undefined;
  /** The POST's reply when decided before anyone waited for it (answered during dispatch). */
  private decided: HttpReply | undefined;
  private waiting: ((reply: HttpReply) => void) | undefined;
  private tail: Promise<void> | undefined;
  private pending = 0;
  private readonly owner: StreamOwner;

  /**
   * `owner` hears of a task that failed; the tasks after it still run. `prefix`, in a
   * cluster, names the session (and, for a POST's stream, the node), so a shared store tells
   * whose stream it is. A session's standalone stream is one for every node (they all
   * append to it): its id is the prefix alone.
   */
  constructor(owed: readonly RequestId[], standalone: boolean, owner: StreamOwner, prefix?: string) {
    if (owed.length === 1) this.one = owed[0];
    else if (owed.length > 1) this.many = new Set(owed);
    this.standalone = standalone;
    this.undecided = !standalone;
    this.owner = owner;
    this.prefix = prefix;
    // A cluster's standalone stream has its name from the start: every node appends to it.
    if (standalone && prefix !== undefined) this.streamId = prefix;
  }

  /** Drawn when first needed: a POST answered as JSON never is. */
  get id(): string {
    this.streamId ??= this.prefix === undefined ? nextStreamId() : `${this.prefix}${nextStreamId()}`;
    return this.streamId;
  }

  /** Whether the id was drawn (the stream may then be stored or looked up by it). */
  get named(): boolean {
    return this.streamId !== undefined;
  }

  /** The requests on this stream still owed a response. */
  get owedCount(): number {
    return this.many ? this.many.size : this.one === undefined ? 0 : 1;
  }

  owes(id: RequestId): boolean {
    return this.many ? this.many.has(id) : this.one === id;
  }

  /** `id` is answered (or will not be): true when it was owed here. */
  release(id: RequestId): boolean {
    if (this.many) return this.many.delete(id);
    if (this.one !== id) return false;
    this.one = undefined;
    return true;
  }

  /** Every request still owed, now no longer owed. */
  releaseAll(): RequestId[] {
    const ids = this.many ? [...this.many] : this.one === undefined ? [] : [this.one];
    this.many = undefined;
    this.one = undefined;
    return ids;
  }

  /** Answers the POST (JSON, SSE or an error), whether or not its reply is awaited yet. */
  decide(reply: HttpReply): void {
    if (!this.undecided) return;
    this.undecided = false;
    const waiting = this.waiting;
    this.waiting = undefined;
    if (waiting) waiting(reply);
    else this.decided = reply;
  }

  /** The POST's reply: itself when it was decided during dispatch, else a promise of it. */
  reply(): HttpReply | Promise<HttpReply> {
    const decided = this.decided;
    if (decided) {
      this.decided = undefined;
      return decided;
    }
    return new Promise((resolve) => {
      this.waiting = resolve;
    });
  }

  /** Something failed the stream: an unanswered POST gets a 500, an open connection is closed (the client resumes or gives up). */
  fail(): void {
    this.decide(jsonRpcErrorReply(500, -32603, "Internal error"));
    const connection = this.connection;
    this.connection = undefined;
    connection?.close();
  }

  /** True when no task is queued: a task given now runs at once. */
  get idle(): boolean {
    return this.pending === 0;
  }

  /** Runs tasks in order; one that finds nothing queued runs at once. */
  enqueue(task: () => void | Promise<void>): void {
    if (this.pending === 0) {
      let result: void | Promise<void>;
      try {
        result = task();
      } catch (error) {
        this.owner.streamFailed(this, error);
        return;
      }
      if (!result) return;
      this.pending++;
      this.tail = this.follow(result);
      return;
    }
    this.pending++;
    this.tail = this.follow((this.tail as Promise<void>).then(task));
  }

  /** Closures made only for a task that goes asynchronous. */
  private follow(task: Promise<void>): Promise<void> {
    return task.then(
      () => {
        this.pending--;
      },
      (error: unknown) => {
        this.pending--;
        this.owner.streamFailed(this, error);
      },
    );
  }
}

export const sseReply = (connection: SseConnection): HttpReply => ({
  status: 200,
  headers: { ...SSE_HEADERS },
  body: connection.body,
});

export const sessionGone = () =>
  jsonRpcErrorReply(404, -32600, "Session not found: it ended or expired; initialize a new one");

/** An answer (a result or an error), not a request or a notification. */
export const isResponse = (m: JsonRpcMessage) => !("method" in m);
