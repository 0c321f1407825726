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

/**
 * One logical SSE stream (transports §Resumability): a POST's answers, or the standalone
 * GET stream. It outlives the HTTP connections that carry it; writes are queued so
 * events keep their order across store appends and reconnections.
 */
export class Stream {
  readonly id: string;
  /** Requests on this stream still owed a response. */
  readonly owed: Set<RequestId>;
  readonly standalone: boolean;
  /** The HTTP connection carrying the stream now, if any. */
  connection: SseConnection | undefined;
  /** Resolves the POST's HTTP reply before it is known to be JSON or SSE. */
  undecided: ((reply: HttpReply) => void) | undefined;
  /** It went out as SSE (so it may be resumed); a JSON answer leaves nothing to keep. */
  sse = false;
  finished = false;
  private tail: Promise<void> | undefined;
  private pending = 0;
  private readonly onFailure: (error: unknown) => void;

  /**
   * `onFailure` hears of a task that failed; the tasks after it still run. `prefix`, in a
   * cluster, names the session (and, for a POST's stream, the node), so a shared store tells
   * whose stream it is. A session's standalone stream is one for every node (they all
   * append to it): its id is the prefix alone.
   */
  constructor(owed: RequestId[], standalone: boolean, onFailure: (error: unknown) => void, prefix?: string) {
    this.id = prefix === undefined ? nextStreamId() : standalone ? prefix : `${prefix}${nextStreamId()}`;
    this.owed = new Set(owed);
    this.standalone = standalone;
    this.onFailure = onFailure;
  }

  /** Something failed the stream: an unanswered POST gets a 500, an open connection is closed (the client resumes or gives up). */
  fail(): void {
    if (this.undecided) {
      this.undecided(jsonRpcErrorReply(500, -32603, "Internal error"));
      this.undecided = undefined;
    }
    const connection = this.connection;
    this.connection = undefined;
    connection?.close();
  }

  /** Runs tasks in order; one that finds nothing queued runs at once. */
  enqueue(task: () => void | Promise<void>): void {
    const done = () => {
      this.pending--;
    };
    const failed = (error: unknown) => {
      this.pending--;
      this.onFailure(error);
    };
    if (this.pending === 0) {
      let result: void | Promise<void>;
      try {
        result = task();
      } catch (error) {
        this.onFailure(error);
        return;
      }
      if (!result) return;
      this.pending++;
      this.tail = result.then(done, failed);
      return;
    }
    this.pending++;
    this.tail = (this.tail as Promise<void>).then(task).then(done, failed);
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
