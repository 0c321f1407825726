import type { FetchLike } from "mcpkit/http-client";

/** One HTTP request the client made, and what came back (or why nothing did). */
export interface Exchange {
  method: string;
  url: string;
  status?: number;
  contentType?: string;
  wwwAuthenticate?: string;
  /** The start of a body that is not an event stream (for JSON-RPC and for explaining what answered). */
  body?: string;
  /** Why no answer came: the network's words, and its code (ECONNREFUSED…). */
  error?: string;
  code?: string;
}

/** How much of a body is kept to judge it. */
const BODY_CHARS = 64 * 1024;

async function start(response: Response): Promise<string | undefined> {
  const reader = response.clone().body?.getReader();
  if (!reader) return undefined;
  const decoder = new TextDecoder();
  let text = "";
  while (text.length < BODY_CHARS) {
    // A body that breaks off is judged by what came of it.
    const { done, value } = await reader.read().catch(() => ({ done: true as const, value: undefined }));
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  await reader.cancel().catch(() => {});
  return text.slice(0, BODY_CHARS);
}

/**
 * A fetch that records each exchange the client makes, as the client makes it: the
 * diagnosis reads the statuses, content types and challenges afterwards, while the client
 * behaves exactly as it would without it. Event streams are not read (they may not end).
 */
export function recordingFetch(): { fetch: FetchLike; exchanges: Exchange[] } {
  const exchanges: Exchange[] = [];
  const fetch: FetchLike = async (input, init) => {
    const exchange: Exchange = { method: (init.method ?? "GET").toUpperCase(), url: String(input) };
    exchanges.push(exchange);
    let response: Response;
    try {
      response = await globalThis.fetch(input, init);
    } catch (error) {
      const cause = (error as { cause?: { message?: string; code?: string } }).cause;
      exchange.error = cause?.message ?? (error as Error).message;
      if (cause?.code !== undefined) exchange.code = cause.code;
      throw error;
    }
    exchange.status = response.status;
    const contentType = response.headers.get("content-type");
    if (contentType !== null) exchange.contentType = contentType;
    const challenge = response.headers.get("www-authenticate");
    if (challenge !== null) exchange.wwwAuthenticate = challenge;
    if (!contentType?.includes("text/event-stream") && response.status !== 202 && response.status !== 204) {
      const body = await start(response);
      if (body !== undefined) exchange.body = body;
    }
    return response;
  };
  return { fetch, exchanges };
}

/** Whether an exchange is an MCP endpoint's answer: an event stream, an accepted message, or a JSON-RPC body. */
export function answersMcp(exchange: Exchange): boolean {
  if (exchange.status === undefined) return false;
  if (exchange.status === 202) return true;
  if (exchange.contentType?.includes("text/event-stream") && exchange.status < 300) return true;
  if (exchange.body === undefined) return false;
  try {
    const body = JSON.parse(exchange.body) as unknown;
    const one = Array.isArray(body) ? body[0] : body;
    return typeof one === "object" && one !== null && (one as { jsonrpc?: unknown }).jsonrpc === "2.0";
  } catch {
    return false;
  }
}
