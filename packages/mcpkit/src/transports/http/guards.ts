import type { HeaderReader, HttpReply } from "./exchange.js";
import { jsonRpcErrorReply } from "./responses.js";

/** What the checks read of a request: its headers (a Web Request qualifies). */
interface WithHeaders {
  readonly headers: HeaderReader;
}

export interface OriginPolicy {
  /** Host names (no port) the Host header may name; "any" turns the check off. */
  allowedHosts: readonly string[] | "any";
  /** Origins (scheme://host[:port], or a host name for any scheme and port) that may call; "any" turns the check off. */
  allowedOrigins: readonly string[] | "any";
}

function hostName(hostHeader: string): string {
  const h = hostHeader.trim().toLowerCase();
  if (h.startsWith("[")) return h.slice(0, h.indexOf("]") + 1);
  const colon = h.lastIndexOf(":");
  return colon === -1 ? h : h.slice(0, colon);
}

function originAllowed(origin: string, allowed: readonly string[]): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  const host = url.hostname.toLowerCase();
  return allowed.some((entry) => {
    const e = entry.toLowerCase();
    return e.includes("://") ? e === url.origin.toLowerCase() : e === host;
  });
}

/** 403 for a foreign Host or Origin (DNS rebinding); undefined when the request may proceed. */
export function checkOrigin(request: WithHeaders, policy: OriginPolicy): HttpReply | undefined {
  if (policy.allowedHosts !== "any") {
    const host = request.headers.get("host");
    if (host !== null && !policy.allowedHosts.includes(hostName(host))) {
      return jsonRpcErrorReply(403, -32600, `Forbidden: Host ${host} is not allowed`);
    }
  }
  const origin = request.headers.get("origin");
  if (origin !== null && policy.allowedOrigins !== "any" && !originAllowed(origin, policy.allowedOrigins)) {
    return jsonRpcErrorReply(403, -32600, `Forbidden: Origin ${origin} is not allowed`);
  }
  return undefined;
}

/**
 * checkOrigin for every request of one endpoint, remembering the Host values it allowed in
 * requests without an Origin (a client sends the same one each time): such a request is
 * then let through on one lookup. A value is remembered only after the full check passed
 * it, under the same policy, and only the first few (each port makes another).
 */
export function originGuard(policy: OriginPolicy): (request: WithHeaders) => HttpReply | undefined {
  // Compared in turn (a client's Host is a fresh string each time: no hash to compute).
  const allowed: string[] = [];
  return (request) => {
    const host = request.headers.get("host");
    const plain = host !== null && request.headers.get("origin") === null;
    if (plain && allowed.includes(host)) return undefined;
    const rejected = checkOrigin(request, policy);
    if (plain && rejected === undefined && allowed.length < REMEMBERED_HOSTS) allowed.push(host);
    return rejected;
  };
}

const REMEMBERED_HOSTS = 8;

/** What clients send (transports §Sending Messages), compared first. */
const ACCEPT_BOTH = "application/json, text/event-stream";

/** transports §Sending Messages: the client must accept both JSON and SSE answers. */
export function acceptsPost(request: WithHeaders): boolean {
  const header = request.headers.get("accept");
  if (header === ACCEPT_BOTH) return true;
  const accept = (header ?? "").toLowerCase();
  if (accept.includes("*/*")) return true;
  return accept.includes("application/json") && accept.includes("text/event-stream");
}

export function acceptsSse(request: WithHeaders): boolean {
  const accept = (request.headers.get("accept") ?? "").toLowerCase();
  return accept.includes("text/event-stream") || accept.includes("*/*");
}

export function isJsonContent(request: WithHeaders): boolean {
  const header = request.headers.get("content-type");
  if (header === "application/json") return true;
  const type = (header ?? "").toLowerCase().split(";")[0]?.trim();
  return type === "application/json";
}

export interface CorsOptions {
  /** Origins allowed to read responses ("*" for any). */
  origins: readonly string[] | "*";
  /** How long a browser may cache the preflight, seconds (default 600). */
  maxAge?: number;
}

const EXPOSED = "mcp-session-id, mcp-protocol-version, www-authenticate";
const ALLOWED_HEADERS =
  "content-type, accept, authorization, mcp-session-id, mcp-protocol-version, last-event-id, mcp-method, mcp-name";

/** CORS headers for a response to `request`, or none when the origin is not allowed. */
export function corsHeaders(request: WithHeaders, cors: CorsOptions | undefined): Record<string, string> {
  const origin = request.headers.get("origin");
  if (!cors || origin === null) return {};
  if (cors.origins !== "*" && !cors.origins.includes(origin)) return {};
  return {
    "access-control-allow-origin": cors.origins === "*" ? "*" : origin,
    "access-control-expose-headers": EXPOSED,
    vary: "Origin",
  };
}

export function preflight(request: WithHeaders, cors: CorsOptions | undefined): HttpReply {
  const headers = corsHeaders(request, cors);
  if (Object.keys(headers).length === 0) return { status: 403, headers: {} };
  return {
    status: 204,
    headers: {
      ...headers,
      "access-control-allow-methods": "GET, POST, DELETE, OPTIONS",
      "access-control-allow-headers": ALLOWED_HEADERS,
      "access-control-max-age": String(cors?.maxAge ?? 600),
    },
  };
}
