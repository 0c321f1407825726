import { applyEvent, update } from "./store.js";
import type { JsonObject } from "./types.js";

/** An operation failed: the server's JSON-RPC error, or the inspector's own refusal. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly code?: number,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/** Runs one of the backend's operations (../ops.ts) and gives its value. */
export async function call<T = JsonObject>(op: string, body: Record<string, unknown> = {}): Promise<T> {
  const response = await fetch(`/api/${op}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const answer = (await response.json().catch(() => ({ error: { message: `HTTP ${response.status}` } }))) as {
    value?: T;
    error?: { message: string; code?: number; data?: unknown };
  };
  if (answer.error) throw new ApiError(answer.error.message, answer.error.code, answer.error.data);
  return answer.value as T;
}

/** Follows the backend's event stream; EventSource reconnects by itself and gets a fresh snapshot. */
export function connectEvents(): void {
  const events = new EventSource("/api/events");
  events.onopen = () => update(() => ({ live: true }));
  events.onerror = () => update(() => ({ live: false }));
  events.onmessage = (message) => applyEvent(JSON.parse(message.data));
}

let callSeq = 0;
/** An id for a call the page may cancel, unique in this page. */
export const newCallId = () => `c${Date.now().toString(36)}${(++callSeq).toString(36)}`;
