import { checkOrigin, corsHeaders, preflight } from "../../transports/http/guards.js";
import { LOCALHOST_NAMES } from "../../transports/http/localhost.js";
import { type Listening, listen } from "../../transports/http/node.js";
import { DEFAULT_MAX_MESSAGE_BYTES } from "../../transports/transport.js";
import { answered, clientKey, type SessionKey, sessionKey, sessionPath, startsSession } from "./http-sessions.js";
import { openRecordingFile, type RecordingFile } from "./recording-file.js";
import type { RedactOptions } from "./redact.js";
import { tapEventStream } from "./sse-tap.js";

export interface HttpRecordOptions extends RedactOptions {
  /** The MCP endpoint relayed to. */
  upstream: string | URL;
  /** The first session's recording; the next ones are numbered beside it (rec-2.jsonl…). */
  out: string;
  /** The port of 127.0.0.1 to listen on (default 0: a free one). */
  port?: number;
  /** Headers added to every request sent upstream (never recorded), e.g. Authorization. */
  headers?: Record<string, string>;
  /** Origins besides the relay's own that may call it (a browser client's page). */
  allowedOrigins?: readonly string[];
  /** Told each recording as it is started. */
  onSession?: (path: string) => void;
  onError?: (error: Error) => void;
}

export interface HttpRecorder {
  /** The relay's MCP endpoint: the upstream's path on 127.0.0.1. */
  readonly url: URL;
  /** The recordings started so far. */
  readonly files: readonly string[];
  close(): Promise<void>;
}

/** Hop-by-hop headers and those the relay sets itself: never forwarded either way. */
const HOP = new Set([
  "connection",
  "keep-alive",
  "transfer-encoding",
  "upgrade",
  "proxy-connection",
  "te",
  "trailer",
  "host",
  "origin",
  "content-length",
  "content-encoding",
  "accept-encoding",
]);

const MAX_BODY_BYTES = DEFAULT_MAX_MESSAGE_BYTES;

/**
 * `mcpkit record --port P URL`: a Streamable HTTP relay on 127.0.0.1 in front of `upstream`
 * that records each session in its own file (http-sessions.ts says what a session is).
 * Only this machine's names may reach it (Host, and Origin when a browser sends one); what
 * the client sends goes upstream unchanged but for hop-by-hop headers, and comes back the
 * same way. Headers are never recorded; credentials in messages are left out (`redact`).
 */
export async function startHttpRecorder(options: HttpRecordOptions): Promise<HttpRecorder> {
  const upstream = new URL(options.upstream);
  const secrets = [...(options.secrets ?? []), ...Object.values(options.headers ?? {})];
  const files: string[] = [];
  const open = new Map<SessionKey, RecordingFile>();
  let port = 0;

  const fileFor = (key: SessionKey, fresh: boolean): RecordingFile => {
    let file = open.get(key);
    if (file && !fresh) return file;
    file?.close();
    const path = sessionPath(options.out, files.length + 1);
    file = openRecordingFile(path, { secrets, ...(options.onError && { onError: options.onError }) });
    files.push(path);
    open.set(key, file);
    options.onSession?.(path);
    return file;
  };
  const end = (key: SessionKey) => {
    open.get(key)?.close();
    open.delete(key);
  };
  /** Header values that are credentials: left out of messages that echo them. */
  const learn = (request: Request) => {
    for (const name of ["authorization", "cookie", "proxy-authorization"]) {
      const value = request.headers.get(name);
      if (!value) continue;
      const token = value.replace(/^\w+\s+/, "");
      for (const secret of [value, token]) if (!secrets.includes(secret) && secrets.length < 1000) secrets.push(secret);
    }
  };

  const handler = {
    async fetch(request: Request): Promise<Response> {
      const refusal = refuse(request, port, options.allowedOrigins ?? []);
      if (refusal) return refusal;
      const cors = { origins: ownOrigins(port, options.allowedOrigins ?? []) };
      if (request.method === "OPTIONS") return toResponse(preflight(request, cors));
      if (new URL(request.url).pathname !== upstream.pathname)
        return new Response(`This relay forwards ${upstream.pathname} only\n`, { status: 404 });
      if (!["GET", "POST", "DELETE"].includes(request.method)) return new Response(null, { status: 405 });
      learn(request);
      const at = performance.now();
      const body = request.method === "POST" ? await bodyText(request, MAX_BODY_BYTES) : undefined;
      if (body === null) return new Response("Request body too large\n", { status: 413 });
      const sent = messagesOf(body);
      const headers = new Headers();
      request.headers.forEach((value, name) => {
        if (!HOP.has(name)) headers.set(name, value);
      });
      for (const [name, value] of Object.entries(options.headers ?? {})) headers.set(name, value);
      headers.set("accept-encoding", "identity");
      let answer: Response;
      try {
        answer = await fetch(upstream, {
          method: request.method,
          headers,
          ...(body !== undefined && { body }),
          redirect: "manual",
          signal: request.signal,
        });
      } catch (error) {
        const why = (error as Error & { cause?: Error }).cause?.message ?? (error as Error).message;
        return new Response(`The relay could not reach ${upstream.origin}: ${why}\n`, { status: 502 });
      }

      // Which session: the one the request names, the one its answer opens, or its client's.
      const named = request.headers.get("mcp-session-id") ?? answer.headers.get("mcp-session-id");
      const key = named ? sessionKey(named) : clientKey(sent);
      let record: Recorder | undefined;
      if (named || !startsSession(sent))
        record = (from, message, when) => fileFor(key, false).write(from, message, when);
      // A handshake or discovery without a session id starts its client's next session, if it succeeds.
      else if (answer.ok && isSse(answer)) record = startOnce(fileFor, key);

      const replyHeaders = new Headers();
      answer.headers.forEach((value, name) => {
        if (!HOP.has(name)) replyHeaders.append(name, value);
      });
      for (const [name, value] of Object.entries(corsHeaders(request, cors))) replyHeaders.set(name, value);

      if (isSse(answer) && answer.body) {
        for (const message of sent) record?.("client", message, at);
        const body = tapEventStream(
          answer.body,
          (data) => {
            for (const message of messagesOf(data)) record?.("server", message);
          },
          MAX_BODY_BYTES,
        );
        return new Response(body, { status: answer.status, headers: replyHeaders });
      }
      const text = await answer.text();
      const received = isJson(answer) ? messagesOf(text) : [];
      // A handshake or discovery without a session id starts its client's next session if it succeeded.
      if (!named && startsSession(sent)) record = answered(received) ? startOnce(fileFor, key) : undefined;
      for (const message of sent) record?.("client", message, at);
      for (const message of received) record?.("server", message);
      if (request.method === "DELETE" && named) end(key);
      return new Response(text === "" ? null : text, { status: answer.status, headers: replyHeaders });
    },
  };

  let listening: Listening;
  try {
    listening = await listen(handler, { port: options.port ?? 0, host: "127.0.0.1" });
  } catch (error) {
    throw new Error(`Could not listen on 127.0.0.1:${options.port ?? 0}: ${(error as Error).message}`);
  }
  port = Number(listening.url.port);
  return {
    url: new URL(upstream.pathname + upstream.search, listening.url),
    files,
    async close() {
      await listening.close();
      for (const key of [...open.keys()]) end(key);
    },
  };
}

/** Writes one message to the recording it belongs to. */
type Recorder = (from: "client" | "server", message: unknown, when?: number) => void;

/** A recorder that opens a fresh file on its first message, then keeps to it. */
function startOnce(fileFor: (key: SessionKey, fresh: boolean) => RecordingFile, key: SessionKey): Recorder {
  let file: RecordingFile | undefined;
  return (from, message, when) => {
    file ??= fileFor(key, true);
    file.write(from, message, when);
  };
}

const isSse = (response: Response) => (response.headers.get("content-type") ?? "").startsWith("text/event-stream");
const isJson = (response: Response) => (response.headers.get("content-type") ?? "").includes("json");

/** The request's body as text, or null when it is larger than `limit` bytes (what is left is not read). */
async function bodyText(request: Request, limit: number): Promise<string | null> {
  if (Number(request.headers.get("content-length") ?? 0) > limit) return null;
  if (!request.body) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of request.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > limit) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** The JSON-RPC messages a body holds: one, a batch's each, or none when it is not JSON. */
function messagesOf(text: string | undefined): unknown[] {
  if (!text) return [];
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value : [value];
  } catch {
    return [];
  }
}

/** The relay's own origins (this machine's names on its port), and those allowed besides. */
function ownOrigins(port: number, allowed: readonly string[]): string[] {
  return [...LOCALHOST_NAMES.map((name) => `http://${name}:${port}`), ...allowed];
}

/**
 * Host must name this machine and the relay's port (DNS rebinding: a foreign name that
 * resolves here); Origin, when a browser sends one, must be the relay's own or allowed.
 */
function refuse(request: Request, port: number, allowed: readonly string[]): Response | undefined {
  const reply = checkOrigin(request, { allowedHosts: LOCALHOST_NAMES, allowedOrigins: ownOrigins(port, allowed) });
  if (reply) return toResponse(reply);
  const host = request.headers.get("host") ?? "";
  const name = host.startsWith("[") ? host.slice(0, host.indexOf("]") + 1) : host.split(":")[0];
  const given = host.slice((name ?? "").length);
  if (given !== `:${port}` && !(port === 80 && given === ""))
    return new Response(`Forbidden: Host ${host} is not this relay's address\n`, { status: 403 });
  return undefined;
}

function toResponse(reply: { status: number; headers: Record<string, string | string[]>; body?: unknown }): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(reply.headers))
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  return new Response(typeof reply.body === "string" ? reply.body : null, { status: reply.status, headers });
}
