import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import { Client, type ClientOptions } from "../../src/client/index.js";
import {
  type StreamableHttpClientOptions,
  type StreamableHttpClientTransport,
  streamableHttpClientTransport,
} from "../../src/transports/streamable-http/client/index.js";
import { closeAllServers, type Listening, listen, within } from "../http-client/helpers.js";

/**
 * A hand-written 2026-07-28 server on 127.0.0.1 for pinning the client's exact wire
 * behaviour: every POST is recorded (headers and body), `routes` answer by method, and
 * anything unrouted gets 404 with -32601, as a modern server answers an unknown method.
 */

export const META_VERSION = "io.modelcontextprotocol/protocolVersion";
export const META_CAPS = "io.modelcontextprotocol/clientCapabilities";
export const META_INFO = "io.modelcontextprotocol/clientInfo";
export const META_LEVEL = "io.modelcontextprotocol/logLevel";
export const META_SERVER = "io.modelcontextprotocol/serverInfo";
export const META_SUB = "io.modelcontextprotocol/subscriptionId";

export type Params = Record<string, unknown> & { _meta?: Record<string, unknown> };

/** One POST as the server saw it. */
export interface Exchange {
  method: string;
  id: string | number | undefined;
  params: Params;
  headers: IncomingHttpHeaders;
}

/** A JSON-RPC error a route throws; `status` is the HTTP status (400 for the modern transport errors). */
export class RouteError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
    readonly status = 200,
  ) {
    super(message);
  }
}

/**
 * Answers one request: a result object (sent as JSON), a RouteError, or `undefined` when
 * the route wrote the response itself through `res` (SSE streams, odd statuses).
 */
export type Route = (
  params: Params,
  exchange: Exchange,
  res: ServerResponse,
  req: IncomingMessage,
) => Record<string, unknown> | undefined | Promise<Record<string, unknown> | undefined>;

export interface FakeServer extends Listening {
  /** Every JSON-RPC message POSTed, in order. */
  exchanges: Exchange[];
  /** The exchanges of one method. */
  of(method: string): Exchange[];
}

export const DISCOVER_RESULT = {
  resultType: "complete",
  supportedVersions: ["2026-07-28"],
  capabilities: {
    tools: { listChanged: true },
    resources: { subscribe: true, listChanged: true },
    prompts: {},
    logging: {},
    completions: {},
  },
  instructions: "Use the fake tools.",
  ttlMs: 0,
  cacheScope: "public",
  _meta: { [META_SERVER]: { name: "fake-modern", version: "9.9.9" } },
};

export const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
};

export async function fakeServer(routes: Record<string, Route>): Promise<FakeServer> {
  const exchanges: Exchange[] = [];
  const table: Record<string, Route> = { "server/discover": () => DISCOVER_RESULT, ...routes };
  const listening = await listen(async (req, res, body) => {
    if (req.method !== "POST") return void res.writeHead(405).end();
    const message = body as { id?: string | number; method?: string; params?: Params };
    const exchange: Exchange = {
      method: message.method ?? "",
      id: message.id,
      params: message.params ?? {},
      headers: req.headers,
    };
    exchanges.push(exchange);
    if (message.id === undefined) return void res.writeHead(202).end();
    const route = table[exchange.method];
    if (!route) {
      return json(res, 404, {
        jsonrpc: "2.0",
        id: message.id,
        error: { code: -32601, message: `Method not found: ${exchange.method}` },
      });
    }
    try {
      const result = await route(exchange.params, exchange, res, req);
      if (result !== undefined) json(res, 200, { jsonrpc: "2.0", id: message.id, result });
    } catch (error) {
      if (!(error instanceof RouteError)) throw error;
      const rpc = { code: error.code, message: error.message, ...(error.data !== undefined && { data: error.data }) };
      json(res, error.status, { jsonrpc: "2.0", id: message.id, error: rpc });
    }
  });
  return Object.assign(listening, {
    exchanges,
    of: (method: string) => exchanges.filter((e) => e.method === method),
  });
}

/** A complete result, as a 2026-07-28 server sends it. */
export const complete = (fields: Record<string, unknown>) => ({ resultType: "complete", ...fields });

const clients: Client[] = [];

/** Connects a Client over Streamable HTTP; closed by `cleanup()`. */
export async function connectHttp(
  url: string,
  options: Partial<ClientOptions> = {},
  transportOptions: StreamableHttpClientOptions = {},
): Promise<{ client: Client; transport: StreamableHttpClientTransport }> {
  const client = new Client({ name: "modern-test", version: "1.2.3", timeoutMs: 5000, ...options });
  clients.push(client);
  const transport = streamableHttpClientTransport(url, transportOptions);
  await within(client.connect(transport), 5000, "connect");
  return { client, transport };
}

/** Closes every client and server the tests made (call from afterEach). */
export async function cleanup(): Promise<void> {
  await Promise.all(clients.map((c) => within(c.close(), 5000, "client.close()").catch(() => undefined)));
  clients.length = 0;
  await closeAllServers();
}

/** A client that is never connected for the test's own failure paths still gets cleaned up. */
export function track(client: Client): Client {
  clients.push(client);
  return client;
}
