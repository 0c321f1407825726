import { ApiError, opClient } from "../contract/client.js";
import type { PageEvent } from "../contract/events.js";
import { keyHeaders } from "./page-key.js";
import { applyEvent, update } from "./store.js";

export { ApiError };

/** The inspector does not know this page (no key, or another run's): nothing works until a fresh link is opened. */
function refused(message = "The inspector refused this page"): void {
  update(() => ({ live: false, refused: message }));
}

/**
 * Runs one of the backend's operations (../contract/operations.ts), typed by its name:
 * `call("tools/call", { name, arguments })` gives a ToolCallOutcome.
 */
export const { call } = opClient({ fetch: (url, init) => fetch(url, init), headers: keyHeaders, onRefused: refused });

/** A stream that ended is opened again after this long, doubling up to the last. */
const RETRY_MS = [250, 500, 1000, 2000, 4000];

/**
 * Follows the backend's event stream (server-sent events, read with fetch: EventSource
 * cannot send the key's header). Each opening starts with a fresh snapshot, so a stream
 * lost and opened again misses nothing.
 */
export async function connectEvents(): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      const response = await fetch("/api/events", { headers: keyHeaders() });
      if (response.status === 401) {
        const answer = (await response.json().catch(() => ({}))) as { error?: { message?: string } };
        return refused(answer.error?.message);
      }
      if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`);
      update(() => ({ live: true }));
      attempt = 0;
      await readEvents(response.body, applyEvent);
      update(() => ({ live: false }));
    } catch {
      // The inspector stopped, or the network between: said in the header, and tried again.
      update(() => ({ live: false }));
    }
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS[Math.min(attempt, RETRY_MS.length - 1)]));
  }
}

/** Reads server-sent events (`data:` lines, a blank line after each) until the stream ends. */
async function readEvents(body: ReadableStream<Uint8Array>, apply: (event: PageEvent) => void): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    text += decoder.decode(value, { stream: true });
    for (let end = text.indexOf("\n\n"); end !== -1; end = text.indexOf("\n\n")) {
      const frame = text.slice(0, end);
      text = text.slice(end + 2);
      const data = frame
        .split("\n")
        .filter((line) => line.startsWith("data: "))
        .map((line) => line.slice(6))
        .join("\n");
      if (data) apply(JSON.parse(data) as PageEvent);
    }
  }
}

let callSeq = 0;
/** An id for a call the page may cancel, unique in this page. */
export const newCallId = () => `c${Date.now().toString(36)}${(++callSeq).toString(36)}`;
