import type { NetworkEntry } from "./contract/entries.js";

export type { NetworkEntry };

type Fetch = (input: string | URL, init?: RequestInit) => Promise<Response>;

/** Headers the view shows: the protocol's own (`Mcp-*`), content negotiation, resumption, authorization. */
const SHOWN = /^(mcp-.*|content-type|accept|last-event-id|www-authenticate|location|dpop-nonce)$/i;
/** Numbers entries across connections, so the page tells them apart. */
let seq = 0;

/** Statuses whose responses carry no body. */
const BODYLESS = new Set([101, 103, 204, 205, 304]);

export function shownHeaders(headers: Headers): Record<string, string> {
  const shown: Record<string, string> = {};
  headers.forEach((value, name) => {
    if (SHOWN.test(name)) shown[name] = value;
    // Credentials are shown by kind only: the page is no place to copy a token from.
    else if (name === "authorization") shown[name] = `${value.split(" ")[0]} …`;
    else if (name === "dpop") shown[name] = "(proof)";
  });
  return shown;
}

function rpcMethods(body: unknown): string[] | undefined {
  if (typeof body !== "string" || body.length > 65_536) return undefined;
  try {
    const parsed = JSON.parse(body) as unknown;
    const messages = Array.isArray(parsed) ? parsed : [parsed];
    return messages.map((m) => {
      const message = m as { method?: unknown; id?: unknown };
      return typeof message.method === "string" ? message.method : "response";
    });
  } catch {
    return undefined;
  }
}

/**
 * A fetch that records every exchange: `record` is called when a request starts and again
 * each time its entry changes (headers came, the body ended). The response body is passed
 * through unchanged, counted on the way.
 */
export function recordingFetch(base: Fetch, record: (entry: NetworkEntry) => void): Fetch {
  return async (input, init = {}) => {
    const started = Date.now();
    const entry: NetworkEntry = {
      seq: ++seq,
      at: started,
      method: (init.method ?? "GET").toUpperCase(),
      url: String(input),
      requestHeaders: shownHeaders(new Headers(init.headers)),
    };
    const rpc = rpcMethods(init.body);
    if (rpc) entry.rpc = rpc;
    record(entry);
    let response: Response;
    try {
      response = await base(input, init);
    } catch (error) {
      entry.error = error instanceof Error ? error.message : String(error);
      entry.durationMs = Date.now() - started;
      record(entry);
      throw error;
    }
    entry.status = response.status;
    entry.responseHeaders = shownHeaders(response.headers);
    entry.durationMs = Date.now() - started;
    entry.stream = (response.headers.get("content-type") ?? "").includes("text/event-stream");
    entry.bytes = 0;
    if (!response.body || BODYLESS.has(response.status)) {
      entry.ended = true;
      record(entry);
      return response;
    }
    record(entry);
    // Closing a stream early is the client aborting its request (2026-07-28 cancels so):
    // the entry ends then, as no flush comes.
    init.signal?.addEventListener(
      "abort",
      () => {
        if (entry.ended) return;
        entry.ended = true;
        entry.cancelled = true;
        record(entry);
      },
      { once: true },
    );
    const counted = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          entry.bytes = (entry.bytes ?? 0) + chunk.byteLength;
          // A stream's events are worth seeing as they come; a plain body only once it ends.
          if (entry.stream) record(entry);
          controller.enqueue(chunk);
        },
        flush() {
          if (entry.ended) return;
          entry.ended = true;
          record(entry);
        },
      }),
    );
    return new Response(counted, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}
