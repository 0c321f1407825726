import {
  createStreamableHttpHandler,
  routeByPath,
  type StreamableHttpOptions,
} from "../../src/endpoints/http/index.js";
import type { McpServer } from "../../src/server/mcp-server.js";
import { type Listening, listen } from "../../src/transports/http/node.js";

export const ACCEPT_BOTH = "application/json, text/event-stream";

export interface SseEventSeen {
  id?: string;
  event?: string;
  retry?: number;
  data: string;
}

/** Reads SSE events off a response body as they arrive. */
export async function* sseEvents(response: Response): AsyncGenerator<SseEventSeen> {
  if (!response.body) return;
  const decoder = new TextDecoder();
  let buffer = "";
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let cut = buffer.indexOf("\n\n");
    while (cut !== -1) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      cut = buffer.indexOf("\n\n");
      const event: SseEventSeen = { data: "" };
      const data: string[] = [];
      let hasField = false;
      for (const line of block.split("\n")) {
        if (line.startsWith(":")) continue;
        const colon = line.indexOf(":");
        const field = colon === -1 ? line : line.slice(0, colon);
        const value = colon === -1 ? "" : line.slice(colon + 1).replace(/^ /, "");
        hasField = true;
        if (field === "id") event.id = value;
        else if (field === "event") event.event = value;
        else if (field === "retry") event.retry = Number(value);
        else if (field === "data") data.push(value);
      }
      if (!hasField) continue;
      event.data = data.join("\n");
      yield event;
    }
  }
}

/** Collects every SSE event of a response until the stream ends (bounded). */
export async function allEvents(response: Response, timeoutMs = 5000): Promise<SseEventSeen[]> {
  const events: SseEventSeen[] = [];
  const timer = setTimeout(() => void response.body?.cancel(), timeoutMs);
  try {
    for await (const e of sseEvents(response)) events.push(e);
  } catch {
    // Cancelled by the timer.
  } finally {
    clearTimeout(timer);
  }
  return events;
}

export const messagesOf = (events: SseEventSeen[]) =>
  events.filter((e) => e.data !== "").map((e) => JSON.parse(e.data) as Record<string, unknown>);

export const initializeBody = (id: number | string = 1, protocolVersion = "2025-11-25", capabilities = {}) => ({
  jsonrpc: "2.0",
  id,
  method: "initialize",
  params: { protocolVersion, capabilities, clientInfo: { name: "raw-http", version: "1" } },
});

/** A server on 127.0.0.1 and a raw MCP-over-HTTP client for it. */
export async function serveHttp(server: McpServer, options?: StreamableHttpOptions) {
  const handler = createStreamableHttpHandler(server, options);
  // Served as `listen(handler)` serves it: the Node adapter's direct path (web-path.test.ts
  // checks that the Web Request/Response path answers the same).
  const routes = routeByPath((path) => (path === "/mcp" ? handler : undefined));
  const listening: Listening = await listen({ ...routes, close: () => handler.close() });
  const url = new URL("/mcp", listening.url).href;

  const post = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: ACCEPT_BOTH, ...headers },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });

  /** initialize + initialized; returns the session id. */
  async function open(capabilities = {}, protocolVersion = "2025-11-25"): Promise<string> {
    const response = await post(initializeBody(1, protocolVersion, capabilities));
    const session = response.headers.get("mcp-session-id");
    if (!session) throw new Error(`no session id (status ${response.status})`);
    await response.text();
    const ack = await post(
      { jsonrpc: "2.0", method: "notifications/initialized" },
      sessionHeaders(session, protocolVersion),
    );
    await ack.text();
    return session;
  }

  return { handler, listening, url, post, open, close: () => listening.close() };
}

export const sessionHeaders = (session: string, protocolVersion = "2025-11-25") => ({
  "mcp-session-id": session,
  "mcp-protocol-version": protocolVersion,
});
