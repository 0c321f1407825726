import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";

/** Anything with a Web-standard fetch handler (a Streamable HTTP handler, a router). */
export interface FetchHandler {
  fetch(request: Request): Promise<Response>;
}

/**
 * The thin node:http adapter: an IncomingMessage becomes a Request (the body streamed, not
 * buffered, so size limits apply as it arrives), and the Response is written back as it is
 * produced, SSE included.
 */
export function toNodeListener(handler: FetchHandler): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    void serve(handler, req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
      res.end();
    });
  };
}

async function serve(handler: FetchHandler, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const controller = new AbortController();
  res.on("close", () => controller.abort());
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, value);
  }
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  const request = new Request(new URL(req.url ?? "/", `http://${req.headers.host ?? "localhost"}`), {
    method: req.method,
    headers,
    body: hasBody ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : undefined,
    signal: controller.signal,
    // Required by undici for a streamed request body.
    duplex: "half",
  } as RequestInit);
  const response = await handler.fetch(request);
  const out: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    out[name] = value;
  });
  const cookies = response.headers.getSetCookie?.();
  if (cookies && cookies.length > 0) out["set-cookie"] = cookies;
  res.writeHead(response.status, out);
  if (!response.body) {
    res.end();
    return;
  }
  if (response.headers.get("content-type")?.startsWith("text/event-stream")) {
    res.flushHeaders();
    req.socket.setNoDelay(true);
  }
  const reader = response.body.getReader();
  res.on("close", () => void reader.cancel().catch(() => {}));
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (!res.write(value)) await new Promise((resolve) => res.once("drain", resolve).once("close", resolve));
    if (res.destroyed) break;
  }
  res.end();
}

export interface ListenOptions {
  port?: number;
  /** Default 127.0.0.1: a local server is not exposed to the network unless asked. */
  host?: string;
}

export interface Listening {
  readonly server: Server;
  /** The base URL, e.g. http://127.0.0.1:3000 */
  readonly url: URL;
  close(): Promise<void>;
}

/** Serves a fetch handler on node:http. close() stops listening and ends open connections. */
export async function listen(
  handler: FetchHandler & { close?(): Promise<void> },
  options: ListenOptions = {},
): Promise<Listening> {
  const server = createServer(toNodeListener(handler));
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const url = new URL(`http://${host.includes(":") ? `[${host}]` : host}:${port}`);
  return {
    server,
    url,
    async close() {
      await handler.close?.();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
