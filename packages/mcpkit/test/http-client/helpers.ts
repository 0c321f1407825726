import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { InMemoryEventStore } from "@modelcontextprotocol/sdk/examples/shared/inMemoryEventStore.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { Client } from "../../src/client/index.js";
import {
  type StreamableHttpClientOptions,
  type StreamableHttpClientTransport,
  streamableHttpClientTransport,
} from "../../src/transports/streamable-http/client/index.js";
import type { Transport } from "../../src/transports/transport.js";
import { sleep, until, within } from "../stdio/helpers.js";

/**
 * Real HTTP servers on 127.0.0.1 for the client transport tests: the official SDK's
 * Streamable HTTP and HTTP+SSE server transports, and a bare node:http server for
 * behaviour that is easier to control by hand. Every wait is bounded.
 */

export { sleep, until, within };

/** One HTTP request as a server saw it. */
export interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  /** The JSON-RPC method of a POST body, when it has one. */
  rpc?: string;
  at: number;
}

export interface Listening {
  url: string;
  seen: Seen[];
  close(): Promise<void>;
}

const servers = new Set<Listening>();

/** Closes every server the tests started (call from afterEach). */
export async function closeAllServers(): Promise<void> {
  await Promise.all([...servers].map((s) => s.close()));
  servers.clear();
}

const clients = new Set<Client>();

const newClient = () =>
  new Client({ name: "http-test", version: "0.0.0", timeoutMs: 10_000, protocolVersion: "2025-11-25" });

/** Connects `client` (by default a 2025-11-25 one) over `transport`; closeAll() closes it. */
export async function connectClient(transport: Transport, client = newClient()): Promise<Client> {
  clients.add(client);
  await within(client.connect(transport), 5000, "connect");
  return client;
}

/** connectClient over a Streamable HTTP transport to `url`. */
export async function connectHttp(
  url: string,
  options: StreamableHttpClientOptions = {},
  client = newClient(),
): Promise<{ client: Client; transport: StreamableHttpClientTransport }> {
  const transport = streamableHttpClientTransport(url, options);
  await connectClient(transport, client);
  return { client, transport };
}

/** Closes every client and server the tests started (call from afterEach). */
export async function closeAll(): Promise<void> {
  await Promise.all([...clients].map((c) => within(c.close(), 5000, "client.close()").catch(() => undefined)));
  clients.clear();
  await closeAllServers();
}

export async function readBody(req: IncomingMessage): Promise<string> {
  let body = "";
  for await (const chunk of req) body += chunk;
  return body;
}

/**
 * A node:http server on 127.0.0.1, port 0. `handler` gets the parsed JSON body of a POST
 * (if any). Sockets are tracked so close() never waits for a stream the client holds open.
 */
export async function listen(
  handler: (req: IncomingMessage, res: ServerResponse, body: unknown) => void | Promise<void>,
  path = "/mcp",
): Promise<Listening> {
  const seen: Seen[] = [];
  const sockets = new Set<Socket>();
  const server = createServer(async (req, res) => {
    const entry: Seen = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, at: performance.now() };
    seen.push(entry);
    let body: unknown;
    if (req.method === "POST") {
      const text = await readBody(req);
      try {
        body = JSON.parse(text);
        entry.rpc = (body as { method?: string }).method;
      } catch {
        body = text;
      }
    }
    try {
      await handler(req, res, body);
    } catch (error) {
      if (!res.headersSent) res.writeHead(500).end(String(error));
    }
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const listening: Listening = {
    url: `http://127.0.0.1:${port}${path}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  servers.add(listening);
  return listening;
}

export interface SdkServerOptions {
  /** Registers tools etc. on each session's McpServer. */
  configure?: (server: McpServer) => void;
  /** Answer with JSON instead of SSE streams. */
  json?: boolean;
  /** Keep an event log so streams can be resumed (and closed by the server). */
  resumable?: boolean;
  /** The `retry` field the server sends in priming events. */
  retryMs?: number;
}

export interface SdkServer extends Listening {
  /** Live sessions by id. */
  sessions: Map<string, { transport: StreamableHTTPServerTransport; server: McpServer }>;
  /** Ids of sessions the client ended with DELETE. */
  deleted: string[];
  /** Every event the event store kept (resumable servers), in order. */
  stored: { id: string; message: unknown }[];
  /** Sessions whose GET stream the SDK opened, in order (it registers a stream before writing its headers). */
  getStreams: string[];
}

/** The OFFICIAL SDK's StreamableHTTPServerTransport, one McpServer per session, as its examples do. */
export async function sdkServer(options: SdkServerOptions = {}): Promise<SdkServer> {
  const sessions: SdkServer["sessions"] = new Map();
  const deleted: string[] = [];
  const eventStore = options.resumable ? new InMemoryEventStore() : undefined;
  const stored: SdkServer["stored"] = [];
  const getStreams: string[] = [];
  if (eventStore) {
    const store = eventStore.storeEvent.bind(eventStore);
    eventStore.storeEvent = async (streamId, message) => {
      const id = await store(streamId, message);
      stored.push({ id, message });
      return id;
    };
  }
  const listening = await listen(async (req, res, body) => {
    const id = req.headers["mcp-session-id"];
    if (typeof id === "string") {
      const session = sessions.get(id);
      if (!session) {
        res.writeHead(404, { "content-type": "application/json" });
        res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32001, message: "Session not found" }, id: null }));
        return;
      }
      if (req.method === "GET") {
        const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => typeof res;
        res.writeHead = ((...args: unknown[]) => {
          getStreams.push(id);
          return writeHead(...args);
        }) as typeof res.writeHead;
      }
      await session.transport.handleRequest(req, res, body);
      return;
    }
    if (req.method !== "POST" || !isInitializeRequest(body)) {
      res.writeHead(400, { "content-type": "application/json" });
      res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message: "Bad Request: No valid session ID" } }));
      return;
    }
    const server = new McpServer({ name: "sdk-test-server", version: "1.0.0" }, { capabilities: { logging: {} } });
    options.configure?.(server);
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: options.json,
      eventStore,
      retryInterval: options.retryMs,
      onsessioninitialized: (sid) => {
        sessions.set(sid, { transport, server });
      },
      onsessionclosed: (sid) => {
        deleted.push(sid);
        sessions.delete(sid);
      },
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  });
  const close = listening.close;
  return Object.assign(listening, {
    sessions,
    deleted,
    stored,
    getStreams,
    async close() {
      await Promise.all([...sessions.values()].map((s) => s.server.close().catch(() => {})));
      sessions.clear();
      await close();
    },
  });
}

/**
 * A 2024-11-05 server: the OFFICIAL SDK's SSEServerTransport. GET /mcp opens the stream,
 * POST /messages carries messages; POST /mcp answers `postStatus` (405 by default), as an
 * old server does when the client tries Streamable HTTP first.
 */
export async function legacySdkServer(
  configure: (server: McpServer) => void,
  postStatus = 405,
): Promise<Listening & { transports: Map<string, SSEServerTransport> }> {
  const transports = new Map<string, SSEServerTransport>();
  const listening = await listen(async (req, res, body) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    if (req.method === "GET" && url.pathname === "/mcp") {
      const transport = new SSEServerTransport("/messages", res);
      transports.set(transport.sessionId, transport);
      res.on("close", () => transports.delete(transport.sessionId));
      const server = new McpServer({ name: "legacy-test-server", version: "1.0.0" }, { capabilities: { logging: {} } });
      configure(server);
      await server.connect(transport);
      return;
    }
    if (req.method === "POST" && url.pathname === "/messages") {
      const transport = transports.get(url.searchParams.get("sessionId") ?? "");
      if (!transport) return void res.writeHead(404).end("Unknown session");
      await transport.handlePostMessage(req, res, body);
      return;
    }
    res.writeHead(postStatus).end();
  });
  return Object.assign(listening, { transports });
}

/** The SSE frame for one event. */
export function sseEvent(fields: { id?: string; retry?: number; event?: string; data?: unknown }): string {
  let frame = "";
  if (fields.event !== undefined) frame += `event: ${fields.event}\n`;
  if (fields.id !== undefined) frame += `id: ${fields.id}\n`;
  if (fields.retry !== undefined) frame += `retry: ${fields.retry}\n`;
  const data =
    fields.data === undefined ? "" : typeof fields.data === "string" ? fields.data : JSON.stringify(fields.data);
  frame += `data: ${data}\n\n`;
  return frame;
}

export const SSE_HEADERS = { "content-type": "text/event-stream", "cache-control": "no-cache" };

/**
 * The handshake part of a hand-written server: initialize answered with JSON and a
 * session id, notifications with 202. Returns false when the request is something else.
 */
export function answerHandshake(
  req: IncomingMessage,
  res: ServerResponse,
  body: unknown,
  sessionId = "raw-session",
): boolean {
  const message = body as { id?: number; method?: string; params?: { protocolVersion?: string } } | undefined;
  if (req.method === "POST" && message?.method === "initialize") {
    res.writeHead(200, { "content-type": "application/json", "mcp-session-id": sessionId });
    res.end(
      JSON.stringify({
        jsonrpc: "2.0",
        id: message.id,
        result: {
          protocolVersion: message.params?.protocolVersion ?? "2025-11-25",
          capabilities: { tools: {} },
          serverInfo: { name: "raw", version: "1.0.0" },
        },
      }),
    );
    return true;
  }
  if (req.method === "POST" && message && message.id === undefined) {
    res.writeHead(202).end();
    return true;
  }
  if (req.method === "DELETE") {
    res.writeHead(200).end();
    return true;
  }
  return false;
}

/** A tool result as the wire carries it. */
export const toolResult = (id: number | string | undefined, text: string) => ({
  jsonrpc: "2.0",
  id,
  result: { content: [{ type: "text", text }] },
});
