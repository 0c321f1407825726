import type { JsonRpcErrorObject } from "../../../jsonrpc/types.js";
import type { ReconnectOptions } from "../../http/client/http-client-options.js";
import { protocolError, streamLost } from "../../http/client/http-errors.js";
import { readSse, SseEventTooLarge } from "../../http/client/sse-reader.js";
import type { HttpSession, SseStream } from "./session.js";

/** Why a stream was given up; `quiet` when that is no failure (a server without a GET stream). */
export interface StreamEnd {
  error: JsonRpcErrorObject;
  quiet?: boolean;
}

/** Waits `ms`, or less if `signal` aborts first. */
const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });

/**
 * Reads `first` (or, without one, connects with GET) and keeps the stream going: when it ends or breaks while it still owes
 * responses (a POST's stream) or at all (the standalone GET stream), it reconnects with
 * GET and `Last-Event-ID` (transports §Resumability and Redelivery), waiting at least the
 * server's `retry` (transports §Sending Messages item 6: the client MUST respect it).
 * Attempts that bring nothing back (no event, no keep-alive comment) wait longer each
 * time, up to `maxRetries` in a row.
 * Resolves undefined once nothing more is owed or the stream was aborted, else with the
 * reason it gave up.
 */
export async function followStream(
  session: HttpSession,
  stream: SseStream,
  first: Response | undefined,
  reconnect: Required<ReconnectOptions>,
): Promise<StreamEnd | undefined> {
  let response: Response | undefined = first;
  let fruitless = 0;
  let lastError: JsonRpcErrorObject | undefined;
  for (;;) {
    let progressed = false;
    if (response?.body) {
      try {
        const handlers = {
          onEvent: (event: Parameters<HttpSession["event"]>[1]) => {
            progressed = true;
            session.event(stream, event);
          },
          onRetry: (ms: number) => {
            stream.retryMs = ms;
          },
          // A keep-alive comment shows the stream was alive, so its loss is no failure.
          onComment: () => {
            progressed = true;
          },
        };
        await readSse(response.body, handlers, session.options.maxMessageBytes);
      } catch (error) {
        if (error instanceof SseEventTooLarge) return { error: protocolError(error.message) };
        // A broken connection is resumed like an ended one (transports §Sending Messages item 6).
      }
    }
    if (stream.signal.aborted || stream.pending?.size === 0) return undefined;
    if (stream.pending && !stream.resumable) return { error: streamLost() };
    fruitless = progressed ? 0 : fruitless + 1;
    if (stream.pending && stream.lastEventId === undefined)
      return {
        error: protocolError(
          "The server ended the response stream before answering, without an event id to resume it from",
        ),
      };
    if (fruitless > reconnect.maxRetries) {
      const why = lastError ? `: ${lastError.message}` : "";
      return {
        error: {
          ...(lastError ?? protocolError("")),
          message: `Gave up resuming the stream after ${reconnect.maxRetries} attempts${why}`,
        },
      };
    }
    const base = stream.retryMs ?? reconnect.initialDelayMs;
    const wait = Math.max(base, Math.min(base * reconnect.growFactor ** fruitless, reconnect.maxDelayMs));
    await sleep(wait, stream.signal);
    if (stream.signal.aborted) return undefined;
    stream.resumed = true;
    const outcome = await session.get(stream);
    response = undefined;
    if ("response" in outcome) response = outcome.response;
    else if ("stop" in outcome) return { error: outcome.stop, quiet: outcome.quiet };
    else lastError = outcome.retry;
  }
}
