import { ErrorCode } from "../../jsonrpc/errors.js";
import type { JsonRpcErrorObject, JsonRpcMessage } from "../../jsonrpc/types.js";
import { discard, mediaType, readErrorText } from "../http/client/body.js";
import { buildHeaders, type HttpClientOptions, resolveHttpOptions } from "../http/client/http-client-options.js";
import { asError, describeTarget, errorResponses, httpError, networkError } from "../http/client/http-errors.js";
import { requestIds } from "../http/client/messages.js";
import { readSse } from "../http/client/sse-reader.js";
import type { Transport, TransportSink } from "../transport.js";

export interface SseClientOptions extends HttpClientOptions {
  /** How long start() waits for the server's `endpoint` event (default 10 000 ms). */
  endpointTimeoutMs?: number;
}

export interface SseClientTransport extends Transport {
  /** Where messages are POSTed, once the server's `endpoint` event named it. */
  readonly endpoint: URL | undefined;
}

/**
 * The client side of the 2024-11-05 HTTP+SSE transport (2024-11-05 transports §HTTP with
 * SSE): a GET opens an event stream whose first event, `endpoint`, names where to POST;
 * every message from the server arrives as a `message` event on that one stream. It has
 * no resumption: when the stream ends, the connection is over.
 */
export function sseClientTransport(url: string | URL, options: SseClientOptions = {}): SseClientTransport {
  const target = new URL(url);
  const http = resolveHttpOptions(options);
  const closing = new AbortController();
  let sink: TransportSink | undefined;
  let endpoint: URL | undefined;
  let finished = false;
  // POSTs go one at a time, so the server reads them in the order they were sent.
  let queue: Promise<void> = Promise.resolve();

  const finish = (reason?: Error) => {
    if (finished) return;
    finished = true;
    closing.abort();
    sink?.close(reason);
  };

  /** Reads the stream; resolves once the `endpoint` event arrived, rejects if it never does. */
  function open(s: TransportSink, resolve: () => void, reject: (error: Error) => void): void {
    const getTarget = describeTarget("GET", target);
    const waitMs = options.endpointTimeoutMs ?? 10_000;
    const timer = setTimeout(() => fail(new Error(`${getTarget} sent no endpoint event within ${waitMs} ms`)), waitMs);
    let started = false;
    // Before start() resolved the caller learns through the rejection; after, through close.
    const fail = (error: Error) => {
      clearTimeout(timer);
      if (started) return finish(error);
      started = true;
      closing.abort();
      reject(error);
    };
    const onEvent = (event: { event?: string; data: string }) => {
      if (event.event === "endpoint") {
        if (endpoint) return;
        const named = new URL(event.data.trim(), target);
        // A stream that could send our messages elsewhere would leak them (and credentials).
        if (named.origin !== target.origin)
          return fail(new Error(`The server's endpoint event names another origin (${named.origin})`));
        endpoint = named;
        started = true;
        clearTimeout(timer);
        resolve();
        return;
      }
      if ((event.event !== undefined && event.event !== "message") || !endpoint) return;
      let value: unknown;
      try {
        value = JSON.parse(event.data);
      } catch {
        s.invalid({ code: ErrorCode.ParseError, message: "Parse error: an SSE event's data is not valid JSON" });
        return;
      }
      s.message(value);
    };
    (async () => {
      let response: Response;
      try {
        const headers = await buildHeaders(http.headers, { accept: "text/event-stream" });
        response = await http.fetch(target, { method: "GET", headers, signal: closing.signal });
      } catch (error) {
        return fail(new Error(networkError(getTarget, error).message));
      }
      if (!response.ok) {
        const body = await readErrorText(response);
        return fail(new Error(httpError(getTarget, response, body).message));
      }
      if (mediaType(response) !== "text/event-stream" || !response.body) {
        await discard(response);
        return fail(
          new Error(`${getTarget} answered ${mediaType(response) || "without a content type"}, not an event stream`),
        );
      }
      try {
        await readSse(response.body, { onEvent }, http.maxMessageBytes);
        fail(new Error("The server ended the HTTP+SSE event stream"));
      } catch (error) {
        // After close() this still settles a start() that was waiting; finish() ignores the rest.
        const why = closing.signal.aborted ? "the transport was closed" : (error as Error).message;
        fail(new Error(`The HTTP+SSE event stream broke: ${why}`));
      }
    })().catch((error: unknown) => fail(error as Error));
  }

  async function postOne(to: URL, message: JsonRpcMessage | JsonRpcMessage[]): Promise<void> {
    const postTarget = describeTarget("POST", to);
    const ids = requestIds(message);
    const report = (error: JsonRpcErrorObject) => {
      if (ids.length === 0) return http.onError(asError(error));
      for (const response of errorResponses(ids, error)) sink?.message(response);
    };
    let response: Response;
    try {
      const headers = await buildHeaders(http.headers, { "content-type": "application/json" });
      response = await http.fetch(to, {
        method: "POST",
        headers,
        body: JSON.stringify(message),
        signal: closing.signal,
      });
    } catch (error) {
      if (!closing.signal.aborted) report(networkError(postTarget, error));
      return;
    }
    if (response.ok) return discard(response);
    report(httpError(postTarget, response, await readErrorText(response)));
  }

  return {
    binding: "sse",
    get endpoint() {
      return endpoint;
    },

    start(s) {
      if (sink) throw new Error("This transport was already started");
      sink = s;
      return new Promise<void>((resolve, reject) => open(s, resolve, reject));
    },

    send(message: JsonRpcMessage | JsonRpcMessage[]) {
      if (finished) throw new Error("The transport is closed");
      const to = endpoint;
      if (!to) throw new Error("The transport is not started");
      queue = queue.then(() => postOne(to, message)).catch((error: unknown) => http.onError(error as Error));
    },

    async close() {
      finish();
    },
  };
}
