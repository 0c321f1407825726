import type { JsonRpcMessage } from "../../../jsonrpc/types.js";
import { isModernRevision } from "../../../protocol/versions.js";
import { discard } from "../../http/client/body.js";
import {
  resolveHttpOptions,
  resolveReconnect,
  type StreamableHttpClientOptions,
} from "../../http/client/http-client-options.js";
import { describeTarget, protocolError, sessionExpired } from "../../http/client/http-errors.js";
import { cancelledId, isInitialize, requestIds } from "../../http/client/messages.js";
import { sseClientTransport } from "../../sse-legacy/sse-client-transport.js";
import type { SendOptions, Transport, TransportSink } from "../../transport.js";
import { followStream } from "./event-stream.js";
import { post } from "./post.js";
import { createHttpSession, type SseStream } from "./session.js";

/** transports §Backwards Compatibility: the statuses that mean "try the old transport". */
const FALLBACK_STATUSES = [400, 404, 405] as const;

/** How long close() waits for the server to acknowledge the DELETE. */
const DELETE_TIMEOUT_MS = 3000;

/** What one transport holds while it lives. */
interface TransportState {
  /** Where messages go up, once started. */
  sink: TransportSink | undefined;
  /** The HTTP+SSE transport, once the endpoint turned out to speak only that one. */
  legacy: Transport | undefined;
  /** The HTTP+SSE transport from the moment it starts (a close closes it, started or not). */
  fallingBack: Transport | undefined;
  /** A handshake completed: the endpoint speaks Streamable HTTP, no fallback any more. */
  initialized: boolean;
  closed: boolean;
  /** The GET stream (transports §Listening for Messages from the Server). */
  standalone: SseStream | undefined;
  /** Settles once the last message sent may be followed by the next (see send). */
  queue: Promise<void>;
}

export interface StreamableHttpClientTransport extends Transport {
  /** The session the server assigned in its initialize answer, if any. */
  readonly sessionId: string | undefined;
  /** "streamable-http", or "sse" once it fell back to the 2024-11-05 HTTP+SSE transport. */
  readonly mode: "streamable-http" | "sse";
  readonly binding: "streamable-http";
}

/**
 * The client side of transports §Streamable HTTP: every message is a POST to the MCP
 * endpoint; answers come as JSON or as SSE streams that are resumed when they drop; a
 * GET stream carries what the server starts; close() ends the session with DELETE. An
 * endpoint that turns out to speak only the 2024-11-05 HTTP+SSE transport is served
 * through that one instead.
 */
export function streamableHttpClientTransport(
  url: string | URL,
  options: StreamableHttpClientOptions = {},
): StreamableHttpClientTransport {
  const endpoint = new URL(url);
  const http = resolveHttpOptions(options);
  const reconnect = resolveReconnect(options.reconnect);
  const session = createHttpSession(endpoint, http);
  const state: TransportState = {
    sink: undefined,
    legacy: undefined,
    fallingBack: undefined,
    initialized: false,
    closed: false,
    standalone: undefined,
    queue: Promise.resolve(),
  };

  /** transports §Backwards Compatibility: GET the same URL for an `endpoint` event, then re-send the initialize. */
  async function fallBack(message: JsonRpcMessage | JsonRpcMessage[], status: number): Promise<void> {
    // Its own options make its own fetch: the same auth, headers and redirect policy.
    const sse = sseClientTransport(endpoint, { ...options, maxMessageBytes: http.maxMessageBytes });
    state.fallingBack = sse;
    try {
      await sse.start(state.sink as TransportSink);
    } catch (error) {
      if (state.closed) return;
      const refused = protocolError(
        `${describeTarget("POST", endpoint)} was refused with HTTP ${status}, and the HTTP+SSE fallback failed too: ${(error as Error).message}`,
      );
      session.fail(requestIds(message), { ...refused, data: { reason: "transport-error", status } });
      return;
    }
    if (state.closed) return;
    state.legacy = sse;
    sse.send(message);
  }

  /** Sends one message; `next` lets the following message go (see send). */
  async function deliver(
    message: JsonRpcMessage | JsonRpcMessage[],
    next: () => void,
    headers: Record<string, string> | undefined,
  ): Promise<void> {
    if (state.legacy) {
      next();
      state.legacy.send(message);
      return;
    }
    // Notifications, responses and the initialize are answered at once with headers; what
    // follows waits for that, so the server sees `notifications/initialized` before the
    // next request. Other requests need only be on their way: their answers may take long.
    const waitForAnswer = requestIds(message).length === 0 || isInitialize(message);
    // Only an endpoint that never completed a handshake may turn out to be an old server.
    const mayFallBack = options.legacyFallback !== false && !state.initialized && isInitialize(message);
    const status = await post(session, message, {
      reconnect,
      fallbackOn: mayFallBack ? FALLBACK_STATUSES : undefined,
      sent: waitForAnswer ? () => {} : next,
      delivered: next,
      headers,
    });
    if (status !== undefined) await fallBack(message, status);
  }

  /** transports §Listening for Messages from the Server; a server without one answers 405. */
  function openStandaloneStream(): void {
    state.standalone?.abort.abort();
    const stream = session.newStream(undefined);
    state.standalone = stream;
    (async () => {
      // Let the handshake's `notifications/initialized`, sent right after, reach the server first.
      await null;
      await state.queue;
      if (stream.signal.aborted) return;
      const first = await session.get(stream);
      const end =
        "stop" in first
          ? { error: first.stop, quiet: first.quiet }
          : await followStream(session, stream, "response" in first ? first.response : undefined, reconnect);
      if (end && !end.quiet && !stream.signal.aborted)
        http.onError(new Error(`The server's GET stream was given up: ${end.error.message}`));
    })().catch((error: unknown) => http.onError(error as Error));
  }

  return {
    get sessionId() {
      return state.legacy ? undefined : session.sessionId;
    },
    get mode() {
      return state.legacy ? "sse" : "streamable-http";
    },
    binding: "streamable-http",

    start(s) {
      if (state.sink) throw new Error("This transport was already started");
      state.sink = s;
      session.attach(s);
    },

    send(message: JsonRpcMessage | JsonRpcMessage[], sendOptions?: SendOptions) {
      if (state.closed) throw new Error("The transport is closed");
      if (!state.sink) throw new Error("The transport is not started");
      if (state.legacy) return state.legacy.send(message);
      // Until a new session begins, a request has no session to go to: it fails like the
      // ones that saw the 404, and the Client retries it after initializing again.
      if (session.expired) {
        if (isInitialize(message)) session.expired = false;
        else {
          const ids = requestIds(message);
          queueMicrotask(() => session.fail(ids, sessionExpired()));
          return;
        }
      }
      // A cancelled request's stream has nothing left to bring (basic/utilities/cancellation).
      const cancelled = cancelledId(message);
      if (cancelled !== undefined) {
        const modern = session.streamFor(cancelled)?.resumable === false || isModernRevision(session.protocolVersion);
        session.settle(cancelled, true);
        // 2026-07-28 basic/patterns/cancellation: on HTTP closing the response stream (just
        // done) is the cancellation; the notification is neither required nor expected.
        if (modern) return;
      }
      // Each message waits for the one before it to let it go: `release`, which deliver calls
      // as soon as the order at the server is safe, and which runs in the end whatever happens.
      const previous = state.queue;
      state.queue = new Promise<void>((release) => {
        previous
          .then(() => deliver(message, release, sendOptions?.headers))
          .catch((error: unknown) => http.onError(error as Error))
          .finally(release);
      });
    },

    setProtocolVersion(version: string) {
      if (state.legacy) return;
      state.initialized = true;
      session.protocolVersion = version;
      // 2026-07-28 has no GET stream: change notifications come on subscriptions/listen.
      if (options.standaloneStream !== false && !state.closed && !isModernRevision(version)) openStandaloneStream();
    },

    async close() {
      if (state.closed) return;
      state.closed = true;
      session.close();
      // The HTTP+SSE transport (even one still starting) shares our sink and closes it.
      if (state.fallingBack) {
        await state.fallingBack.close();
        return;
      }
      // transports §Session Management item 5; 405 means the server keeps sessions itself.
      if (session.sessionId !== undefined) {
        try {
          const headers = await session.headers({});
          const response = await http.fetch(endpoint, {
            method: "DELETE",
            headers,
            signal: AbortSignal.timeout(DELETE_TIMEOUT_MS),
          });
          await discard(response);
        } catch {
          // The server may already be gone; the session ends either way.
        }
      }
      state.sink?.close();
    },
  };
}
