import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";
import type { Root } from "mcpkit";
import { AppViews } from "./app-views.js";
import { Guard } from "./guard.js";
import { OpError } from "./op-error.js";
import { isOpName, type JsonBody, type OpContext, runOperation } from "./ops/index.js";
import { refusalPage, wantsPage } from "./refusal-page.js";
import { InspectorSession, type PageEvent } from "./session.js";
import { loadStaticFiles, type StaticFile } from "./static-files.js";
import type { ProtocolChoice, Target } from "./target.js";

export interface InspectorOptions {
  target: Target;
  protocol?: ProtocolChoice;
  /** Port on 127.0.0.1 (default 0: a free one). */
  port?: number;
  /** Request timeout towards the server, ms (default 300 000: people answer elicitations slowly; 0: none). */
  timeoutMs?: number;
  /**
   * How often an HTTP server is pinged while a page is open, to notice that it went away,
   * ms (default 5000; 0: never). A ping unanswered for 10 s, or refused by the network, means gone.
   */
  pingIntervalMs?: number;
  /**
   * The programs the page may start as a stdio server besides the command line's own
   * (`--allow-spawn node,npx`), each named exactly as the page must name it. Default: none.
   */
  allowSpawn?: readonly string[];
  /**
   * The roots offered to the server (the page edits them). Default: the folder the server
   * starts in (a stdio server's own, else this process's), as an editor offers its
   * workspace folder; a server that narrows its files to the client's roots then works.
   */
  roots?: Root[];
  /** The name the command line gave the server by (`mcpkit inspect NAME`): a downloaded test file names it. */
  serverName?: string;
  /** Where the built page is (default: the one shipped in @mcpkit/cli). */
  uiDir?: string;
}

export interface Inspector {
  /** The URL to open, with the one-time token. */
  readonly url: string;
  /** A fresh URL with a new one-time token (the last one printed, if unused, no longer opens). */
  freshUrl(): string;
  readonly port: number;
  readonly session: InspectorSession;
  close(): Promise<void>;
}

/** The largest body the page may POST. */
const MAX_BODY = 4 * 1024 * 1024;
/** A page that reads its events this far behind is dropped; it reconnects and gets a fresh snapshot. */
const MAX_BACKLOG = 8 * 1024 * 1024;

/** The inspector page's own policy: its scripts and styles only, frames only from itself (app views). */
const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "media-src 'self' data: blob:",
  "connect-src 'self'",
  "frame-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

const COMMON_HEADERS = {
  "cache-control": "no-store",
  "referrer-policy": "no-referrer",
  "x-content-type-options": "nosniff",
};

/**
 * Starts the inspector: a web page on 127.0.0.1 and its backend, an mcpkit Client connected
 * to the target. Every request is checked by the Guard (Host, Origin, the token's cookie,
 * and for the API the page's key).
 */
export async function startInspector(options: InspectorOptions): Promise<Inspector> {
  const files = loadStaticFiles(options.uiDir);
  const guard = new Guard();
  const pages = new Set<ServerResponse>();
  let port = 0;
  const session = new InspectorSession({
    target: options.target,
    protocol: options.protocol ?? "auto",
    timeoutMs: options.timeoutMs ?? 300_000,
    redirectUri: () => `http://127.0.0.1:${port}/oauth/callback`,
    allowSpawn: options.allowSpawn ?? [],
    roots: options.roots ?? [folderRoot(options.target)],
    pingIntervalMs: options.pingIntervalMs ?? 5000,
    emit: (event) => broadcast(pages, event),
  });
  const ctx: OpContext = {
    session,
    views: new AppViews(),
    calls: new Map(),
    ...(options.serverName !== undefined && { serverName: options.serverName }),
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent)
        send(res, 500, { error: { message: error instanceof Error ? error.message : String(error) } });
      else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const refused = guard.checkPlace(req);
    if (refused) return send(res, refused.status, { error: { message: refused.message } });
    if (req.method === "GET" && url.pathname === "/" && url.searchParams.has("token")) {
      const exchanged = guard.exchange(url.searchParams.get("token") ?? "");
      if (!exchanged) return sendPage(res, 401, refusalPage("used-token"));
      // The token leaves the address bar (and the history) at once. The key rides in the
      // fragment, which no request carries: the page moves it to its own storage and
      // clears the address bar (ui/page-key.ts).
      const next = `/#key=${exchanged.key}`;
      // Opened from another site or a page on disk (--open's, open-browser.ts), a redirect
      // would stay cross-site and arrive without the SameSite=Strict cookie it set: a page
      // of the inspector's own moves on instead.
      if (req.headers["sec-fetch-site"] === "cross-site")
        return sendPage(res, 200, movingOn(next), { "set-cookie": exchanged.cookie });
      res.writeHead(303, { ...COMMON_HEADERS, "set-cookie": exchanged.cookie, location: next }).end();
      return;
    }
    if (req.method === "GET" && url.pathname === "/oauth/callback") return oauthCallback(url, res);
    const noCookie = guard.checkCookie(req);
    if (noCookie) {
      if (req.method === "GET" && wantsPage(req.headers.accept, url.pathname))
        return sendPage(res, noCookie.status, refusalPage("no-cookie"));
      return send(res, noCookie.status, { error: { message: noCookie.message } });
    }

    if (url.pathname.startsWith("/api/")) {
      // The cookie is not enough for what drives the server or reads what it said: the key too.
      const noKey = guard.checkKey(req);
      if (noKey) return send(res, noKey.status, { error: { message: noKey.message } });
      if (req.method === "GET" && url.pathname === "/api/events") return openEvents(res);
      if (req.method === "POST") return runOp(url.pathname.slice(5), req, res);
    }
    if (req.method === "GET" && url.pathname.startsWith("/views/")) return serveView(url.pathname.slice(7), res);
    if (req.method === "GET") {
      const file = files.get(url.pathname === "/" ? "/index.html" : url.pathname);
      if (file) return serveFile(req, res, file);
    }
    send(res, 404, { error: { message: `Nothing at ${req.method} ${url.pathname}` } });
  }

  function openEvents(res: ServerResponse): void {
    res.writeHead(200, { ...COMMON_HEADERS, "content-type": "text/event-stream", connection: "keep-alive" });
    pages.add(res);
    session.setPageOpen(true);
    res.on("close", () => {
      pages.delete(res);
      session.setPageOpen(pages.size > 0);
    });
    write(res, session.snapshot());
  }

  async function runOp(name: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!isOpName(name)) return send(res, 404, { error: { message: `The inspector has no operation "${name}"` } });
    let body: JsonBody;
    try {
      body = await readJson(req);
    } catch (error) {
      return send(res, 400, { error: { message: (error as Error).message } });
    }
    try {
      send(res, 200, { value: (await runOperation(name, body, ctx)) ?? null });
    } catch (error) {
      send(res, error instanceof OpError ? 400 : 200, { error: describeError(error) });
    }
  }

  function serveView(id: string, res: ServerResponse): void {
    const view = ctx.views.get(id);
    if (!view) {
      send(res, 404, { error: { message: "No such app view (it may have been replaced)" } });
      return;
    }
    res.writeHead(200, {
      ...COMMON_HEADERS,
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": view.csp,
    });
    res.end(view.html);
  }

  function oauthCallback(url: URL, res: ServerResponse): void {
    // No cookie here: the authorization server's redirect is a cross-site navigation, which
    // SameSite=Strict withholds it from. The state parameter binds the callback instead.
    const delivered = session.finishSignIn(url);
    // An error the authorization server sent back (RFC 6749 §4.1.2.1), named by its code only:
    // anyone can open this address, so nothing else of it is echoed.
    const error = url.searchParams.get("error");
    const said = !delivered
      ? "No sign-in is waiting for this."
      : error === null
        ? "Signed in. You can close this tab and return to the inspector."
        : `The sign-in did not complete (${/^[\w.-]{1,64}$/.test(error) ? error : "an error"}). Return to the inspector: it says why.`;
    res.writeHead(delivered ? 200 : 400, { ...COMMON_HEADERS, "content-type": "text/html; charset=utf-8" });
    res.end(`<!doctype html><meta charset="utf-8"><title>mcpkit inspector</title><p>${said}</p>`);
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  guard.listening(port);
  const link = (token: string | undefined) => `http://127.0.0.1:${port}/?token=${token}`;
  const url = link(guard.pendingToken);
  void session.connect();

  return {
    url,
    freshUrl: () => link(guard.renew()),
    port,
    session,
    close: async () => {
      for (const page of pages) page.end();
      await session.disconnect();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function folderRoot(target: Target): Root {
  const folder = (target.kind === "stdio" && target.cwd) || process.cwd();
  return { uri: pathToFileURL(folder).href, name: folder };
}

function serveFile(req: IncomingMessage, res: ServerResponse, file: StaticFile): void {
  const gzip = /\bgzip\b/.test(String(req.headers["accept-encoding"] ?? ""));
  res.writeHead(200, {
    ...COMMON_HEADERS,
    "content-type": file.type,
    "content-security-policy": PAGE_CSP,
    vary: "accept-encoding",
    ...(gzip && { "content-encoding": "gzip" }),
  });
  res.end(gzip ? file.gzip : file.body);
}

/** A page that sends the browser on to `path` of the inspector (a navigation the inspector itself starts). */
const movingOn = (path: string) =>
  `<!doctype html><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=${path}"><title>mcpkit inspector</title>`;

/** A page of fixed text, no script: under a policy that lets it run none. */
function sendPage(res: ServerResponse, status: number, html: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, {
    ...COMMON_HEADERS,
    ...headers,
    "content-type": "text/html; charset=utf-8",
    "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
  });
  res.end(html);
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { ...COMMON_HEADERS, "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

function write(res: ServerResponse, event: PageEvent): void {
  res.write(`data: ${JSON.stringify(event)}\n\n`);
}

function broadcast(pages: Set<ServerResponse>, event: PageEvent): void {
  if (pages.size === 0) return;
  const line = `data: ${JSON.stringify(event)}\n\n`;
  for (const page of pages) {
    // Ended (dropped, or the inspector closing) but not yet closed: nothing more to it.
    if (page.writableEnded) continue;
    if (page.writableLength > MAX_BACKLOG) page.end();
    else page.write(line);
  }
}

function describeError(error: unknown): { message: string; code?: number; data?: unknown } {
  if (!(error instanceof Error)) return { message: String(error) };
  const { code, data } = error as { code?: unknown; data?: unknown };
  return {
    message: error.message,
    ...(typeof code === "number" && { code }),
    ...(data !== undefined && { data }),
  };
}

async function readJson(req: IncomingMessage): Promise<JsonBody> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY) throw new Error(`The body is larger than ${MAX_BODY} bytes`);
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString("utf8");
  const value = text ? (JSON.parse(text) as unknown) : {};
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new Error("The body must be a JSON object");
  return value as JsonBody;
}
