import { ErrorCode } from "../../../jsonrpc/errors.js";
import type { JsonRpcErrorObject, RequestId } from "../../../jsonrpc/types.js";
import { discard, mediaType, readErrorText } from "../../http/client/body.js";
import { buildHeaders, type ResolvedHttpOptions } from "../../http/client/http-client-options.js";
import {
  describeTarget,
  errorResponses,
  httpError,
  networkError,
  protocolError,
  sessionExpired,
} from "../../http/client/http-errors.js";
import { responseIds } from "../../http/client/messages.js";
import type { EventSourceMessage } from "../../http/client/sse-reader.js";
import type { TransportSink } from "../../transport.js";

/** Event ids remembered for de-duplication; old ones are forgotten first. */
const SEEN_EVENT_IDS = 10_000;

/** One SSE stream from the server: a POST's answer, its resumptions, or the standalone GET stream. */
export interface SseStream {
  /** Aborts this stream only. */
  readonly abort: AbortController;
  /** Aborted when this stream is aborted or the transport closes. */
  readonly signal: AbortSignal;
  /** The cursor for `Last-Event-ID` (transports §Resumability and Redelivery). */
  lastEventId: string | undefined;
  /** The server's last `retry` field on this stream. */
  retryMs: number | undefined;
  /** Requests whose responses this stream owes; undefined for the standalone GET stream. */
  readonly pending: Set<RequestId> | undefined;
  /** Set once the stream continues on a GET, which nothing but us will end. */
  resumed: boolean;
  /**
   * False for a 2026-07-28 request's stream: that revision has no `Last-Event-ID`
   * resumption, so a lost stream loses the request (changelog item 9).
   */
  readonly resumable: boolean;
}

/** What a GET for a stream came back with. */
export type GetOutcome =
  | { response: Response }
  /** Worth another try later (network failure, 5xx, 429). */
  | { retry: JsonRpcErrorObject }
  /** Final. `quiet`: the server simply offers no stream here (405), which is no failure for the standalone stream. */
  | { stop: JsonRpcErrorObject; quiet?: boolean };

export interface HttpSession {
  readonly url: URL;
  readonly options: ResolvedHttpOptions;
  /** Aborted by close(): every fetch and stream of the transport listens to it. */
  readonly closed: AbortSignal;
  sessionId: string | undefined;
  protocolVersion: string | undefined;
  /** Set when the server forgot the session, until a new initialize is sent. */
  expired: boolean;
  attach(sink: TransportSink): void;
  close(): void;
  headers(own: Record<string, string>): Promise<Headers>;
  newStream(pending: Iterable<RequestId> | undefined, resumable?: boolean): SseStream;
  /** The stream that owes the response to `id`, while it is owed. */
  streamFor(id: RequestId): SseStream | undefined;
  settle(id: RequestId, abortIfDone?: boolean): void;
  message(value: unknown): void;
  fail(ids: Iterable<RequestId>, error: JsonRpcErrorObject): void;
  event(stream: SseStream, event: EventSourceMessage): void;
  expire(): void;
  get(stream: SseStream): Promise<GetOutcome>;
}

/**
 * The state one Streamable HTTP client shares across its requests and streams: the
 * session id and revision it sends, which stream owes which response, and the event ids
 * already delivered, so a replayed event is never handed up twice.
 */
export function createHttpSession(url: URL, options: ResolvedHttpOptions): HttpSession {
  const closing = new AbortController();
  const seen = new Set<string>();
  const owed = new Map<RequestId, SseStream>();
  let sink: TransportSink | undefined;

  const session: HttpSession = {
    url,
    options,
    closed: closing.signal,
    sessionId: undefined,
    protocolVersion: undefined,
    expired: false,

    attach(s: TransportSink) {
      sink = s;
    },
    close() {
      closing.abort();
    },

    /**
     * The headers every request carries (transports §Session Management, §Protocol Version
     * Header); `own` comes last, so a request that names its revision in `_meta` sends that one.
     */
    headers(own: Record<string, string>): Promise<Headers> {
      const all: Record<string, string> = {};
      if (session.sessionId !== undefined) all["mcp-session-id"] = session.sessionId;
      if (session.protocolVersion !== undefined) all["mcp-protocol-version"] = session.protocolVersion;
      return buildHeaders(options.headers, { ...all, ...own });
    },

    newStream(pending: Iterable<RequestId> | undefined, resumable = true): SseStream {
      const abort = new AbortController();
      const stream: SseStream = {
        abort,
        signal: AbortSignal.any([closing.signal, abort.signal]),
        lastEventId: undefined,
        retryMs: undefined,
        pending: pending === undefined ? undefined : new Set(pending),
        resumed: false,
        resumable,
      };
      for (const id of stream.pending ?? []) owed.set(id, stream);
      return stream;
    },

    streamFor(id: RequestId) {
      return owed.get(id);
    },

    /**
     * Forgets that `id` is owed (its response arrived, failed, or was cancelled). A stream
     * that owes nothing more is ended by us when `abortIfDone` or when it is a resumption
     * GET; a POST's own stream is left for the server to end, so its connection is reused.
     */
    settle(id: RequestId, abortIfDone = false) {
      const stream = owed.get(id);
      if (!stream) return;
      owed.delete(id);
      stream.pending?.delete(id);
      if (stream.pending?.size === 0 && (abortIfDone || stream.resumed)) stream.abort.abort();
    },

    /** Hands a decoded value up, settling the responses in it. */
    message(value: unknown) {
      for (const id of responseIds(value)) session.settle(id);
      sink?.message(value);
    },

    /** Answers each request in `ids` with `error`, so its caller's promise rejects now. */
    fail(ids: Iterable<RequestId>, error: JsonRpcErrorObject) {
      for (const response of errorResponses(ids, error)) session.message(response);
    },

    /**
     * One SSE event: `message` events (or untyped ones) carry one JSON-RPC message; an
     * empty `data` is the priming event that only sets the cursor (transports §Sending
     * Messages item 6). Event ids are unique per session, so a replay is recognised.
     */
    event(stream: SseStream, event: EventSourceMessage) {
      // A 2026-07-28 stream is never replayed, so its ids (if a server sends any) mean nothing.
      if (stream.resumable && event.id !== undefined && event.id !== "") {
        stream.lastEventId = event.id;
        if (seen.has(event.id)) return;
        seen.add(event.id);
        if (seen.size > SEEN_EVENT_IDS) seen.delete(seen.values().next().value as string);
      }
      if (event.event !== undefined && event.event !== "message") return;
      if (event.data.trim() === "") return;
      let value: unknown;
      try {
        value = JSON.parse(event.data);
      } catch {
        sink?.invalid({ code: ErrorCode.ParseError, message: "Parse error: an SSE event's data is not valid JSON" });
        return;
      }
      session.message(value);
    },

    /** transports §Session Management item 3: a 404 for our session id means it is gone. */
    expire() {
      session.sessionId = undefined;
      session.protocolVersion = undefined;
      session.expired = true;
      seen.clear();
    },

    /**
     * GET the MCP endpoint for a stream: the standalone one (transports §Listening for
     * Messages from the Server) or a resumption with `Last-Event-ID`.
     */
    async get(stream: SseStream): Promise<GetOutcome> {
      const target = describeTarget("GET", url);
      const own: Record<string, string> = { accept: "text/event-stream" };
      if (stream.lastEventId !== undefined) own["last-event-id"] = stream.lastEventId;
      const sentSession = session.sessionId;
      let response: Response;
      try {
        response = await options.fetch(url, {
          method: "GET",
          headers: await session.headers(own),
          signal: stream.signal,
        });
      } catch (error) {
        return { retry: networkError(target, error) };
      }
      if (response.ok && mediaType(response) === "text/event-stream" && response.body) return { response };
      if (response.ok) {
        await discard(response);
        return {
          stop: protocolError(
            `${target} answered ${mediaType(response) || "without a content type"}, not an event stream`,
          ),
        };
      }
      const body = await readErrorText(response);
      if (response.status === 404 && sentSession !== undefined && stream.pending !== undefined) {
        if (session.sessionId === sentSession) session.expire();
        return { stop: sessionExpired() };
      }
      const error = httpError(target, response, body);
      // 405: the server offers no GET stream (transports §Listening item 3); 404: none here.
      if (response.status === 405 || (response.status === 404 && stream.pending === undefined))
        return { stop: error, quiet: true };
      if (response.status >= 500 || response.status === 429 || response.status === 408) return { retry: error };
      return { stop: error };
    },
  };
  return session;
}
