import { type CheckInfo, type CheckResult, failed, passed } from "../check.js";
import { printable } from "../printable.js";
import type { Answering } from "./alternatives.js";
import { answersMcp, type Exchange } from "./recording-fetch.js";

export const reachable: CheckInfo = {
  id: "reachable",
  severity: "error",
  summary: "The URL's host accepts connections: the name resolves, something listens on the port, TLS is trusted.",
  fix: "Start the server, or correct the host and port; for TLS, use a certificate the client trusts (NODE_EXTRA_CA_CERTS names a private CA).",
};

export const endpoint: CheckInfo = {
  id: "endpoint",
  severity: "error",
  summary:
    "The URL answers MCP (a JSON-RPC body or an event stream, or a 401 asking for authorization), with its HTTP status and content type shown; when it does not, the same origin's /mcp and /sse are tried and the one that answers is named.",
  fix: "Give the URL of the MCP endpoint itself, most often …/mcp (…/sse for a server of the HTTP+SSE transport).",
};

export const legacySse: CheckInfo = {
  id: "legacy-sse",
  severity: "warning",
  summary:
    "The server speaks Streamable HTTP; the HTTP+SSE transport of 2024-11-05 still works (mcpkit falls back to it) but is deprecated.",
  fix: "Serve Streamable HTTP (one endpoint for POST and GET, transports §Streamable HTTP); keep the HTTP+SSE endpoint beside it for old clients if you need to.",
};

/** Network failures in words a person can act on. */
function networkCause(exchange: Exchange, url: URL): { message: string; fix?: string } {
  const where = `${url.hostname}:${url.port || (url.protocol === "https:" ? 443 : 80)}`;
  switch (exchange.code) {
    case "ECONNREFUSED":
      return {
        message: `Nothing accepts connections at ${where} (connection refused)`,
        fix: "Start the server, or correct the port.",
      };
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return {
        message: `The host name ${url.hostname} does not resolve (${exchange.code})`,
        fix: "Correct the host name.",
      };
    case "ECONNRESET":
      return { message: `${where} closed the connection without answering (${exchange.code})` };
    default: {
      // fetch refuses some ports outright, as browsers do (the Fetch standard's "bad ports":
      // 6000, 6665-6669, 5060…): its error says only "bad port".
      if (exchange.error === "bad port")
        return {
          message: `fetch refuses to connect to ${where}: port ${url.port} is a "bad port" of the Fetch standard (as browsers have it)`,
          fix: "Serve on another port: clients built on fetch (browsers, Node's fetch, mcpkit's own) never connect to this one.",
        };
      const code = exchange.code ? ` (${exchange.code})` : "";
      if (/certificate|CERT_|SSL|TLS|wrong version number|EPROTO/i.test(`${exchange.code} ${exchange.error}`)) {
        // OpenSSL's words for an answer that is not TLS at all (they changed between versions).
        const plain = /wrong version number|WRONG_VERSION|packet length too long|PACKET_LENGTH/i.test(
          `${exchange.code} ${exchange.error}`,
        );
        return {
          message: `TLS with ${where} failed${code}${plain ? ": the server seems to speak plain HTTP" : ""}`,
          fix: plain
            ? `Use http://${url.host}${url.pathname}: the server does not speak TLS on that port.`
            : "Use a certificate the client trusts (NODE_EXTRA_CA_CERTS names a private CA), with the host name the URL gives.",
        };
      }
      return { message: `${where} could not be reached: ${printable(exchange.error ?? "the request failed")}${code}` };
    }
  }
}

/** The first exchange that never got an answer, as a failed reachable check; undefined when every request was answered. */
export function unreachable(exchanges: Exchange[], url: URL): CheckResult | undefined {
  if (exchanges.some((e) => e.status !== undefined)) return undefined;
  const failure = exchanges.find((e) => e.error !== undefined);
  if (!failure) return undefined;
  const { message, fix } = networkCause(failure, url);
  return failed(reachable, message, fix);
}

export const reached = (url: URL): CheckResult => passed(reachable, `${url.host} accepts connections`);

/** The error message of a JSON-RPC error body, if the body is one. */
function rpcErrorMessage(body: string | undefined): string | undefined {
  try {
    const message = (JSON.parse(body ?? "") as { error?: { message?: unknown } }).error?.message;
    return typeof message === "string" ? message : undefined;
  } catch {
    return undefined;
  }
}

/** "HTTP 404 (text/html)" and the start of a body that says more (a JSON-RPC error's message). */
export function answerText(exchange: Exchange): string {
  const type = exchange.contentType?.split(";")[0];
  const body = (rpcErrorMessage(exchange.body) ?? exchange.body)?.trim().replace(/\s+/g, " ");
  const excerpt = body ? `: ${printable(body.length > 160 ? `${body.slice(0, 160)}…` : body)}` : "";
  return `HTTP ${exchange.status}${type ? ` (${type})` : ""}${excerpt}`;
}

/** The URL answered, but not MCP: which other path of the origin does, if one does. */
export function notMcp(url: URL, first: Exchange, others: { found?: Answering; tried: string[] }): CheckResult {
  const failing = (first.status ?? 0) >= 500;
  const message = failing
    ? `${url.href} fails: it answers ${answerText(first)}`
    : `${url.href} is not an MCP endpoint: it answers ${answerText(first)}`;
  const other = others.found;
  if (!other) {
    const tried = others.tried.length
      ? `. No other path of ${url.origin} answers MCP either (tried ${others.tried.join(", ")})`
      : "";
    return failed(
      endpoint,
      `${message}${tried}`,
      failing
        ? "The server failed on the request (a 5xx is its own error, not a wrong address): its log says why."
        : endpoint.fix,
    );
  }
  const what =
    other.mode === "sse"
      ? "MCP over the HTTP+SSE transport (2024-11-05)"
      : other.mode === "auth"
        ? "MCP, asking for authorization"
        : "MCP (Streamable HTTP)";
  return failed(endpoint, `${message}. ${other.url} answers ${what}`, `Use ${other.url}: it answers ${what}.`);
}

export const forbidden = (url: URL, exchange: Exchange): CheckResult =>
  failed(
    endpoint,
    `${url.href} refuses the request: ${answerText(exchange)}`,
    "The server refused this client: its Host or Origin check (a server on 127.0.0.1 accepts only its own names), an IP allow-list, or credentials (--header).",
  );

/** The URL answers MCP: the answer that shows it (the successful one when there is one). */
export function answersMcpAt(url: URL, exchanges: Exchange[]): CheckResult {
  const shown =
    exchanges.find((e) => answersMcp(e) && (e.status as number) < 300) ?? exchanges.find((e) => answersMcp(e));
  return passed(
    endpoint,
    `${url.href} answers MCP${shown ? ` (${shown.method}: ${answerText({ ...shown, body: undefined })})` : ""}`,
  );
}

export const transportMode = (mode: "streamable-http" | "sse"): CheckResult =>
  mode === "sse"
    ? failed(
        legacySse,
        "The server speaks the HTTP+SSE transport of 2024-11-05, which is deprecated: it works, and clients may drop it",
      )
    : passed(legacySse, "Streamable HTTP");
