import { ErrorCode } from "../../../jsonrpc/errors.js";
import type { JsonObject, JsonRpcErrorObject, JsonRpcFailure, RequestId } from "../../../jsonrpc/types.js";

/**
 * The JSON-RPC errors the HTTP client transports hand up in place of a response that
 * cannot come, so the caller's promise rejects now, with a reason a person can act on,
 * instead of at its timeout. `data.reason` lets code tell them apart.
 */

export const SESSION_EXPIRED_MESSAGE = "Session expired: the server no longer knows this session";

/** transports §Session Management item 4: the client must start a new session (the Client does). */
export const sessionExpired = (): JsonRpcErrorObject => ({
  code: ErrorCode.ConnectionClosed,
  message: SESSION_EXPIRED_MESSAGE,
  data: { reason: "session-expired", status: 404 },
});

/** Where a request went, for messages: origin and path only, never a query that may hold a secret. */
export const describeTarget = (method: string, url: URL) => `${method} ${url.origin}${url.pathname}`;

/** The JSON-RPC error object in an HTTP error body, if the server sent one (transports §Sending Messages). */
function errorInBody(body: string): JsonRpcErrorObject | undefined {
  try {
    const value = JSON.parse(body) as { error?: unknown };
    const error = value?.error as JsonRpcErrorObject | undefined;
    if (error && typeof error.code === "number" && typeof error.message === "string") return error;
  } catch {
    // Not JSON: the text itself is reported.
  }
  return undefined;
}

/** The JSON-RPC errors only a 2026-07-28 server sends: header mismatch, missing capability, unsupported version. */
const MODERN_CODES: readonly number[] = [
  ErrorCode.HeaderMismatch,
  ErrorCode.MissingRequiredClientCapability,
  ErrorCode.UnsupportedProtocolVersion,
];

/**
 * transports/streamable-http §Backward Compatibility: a 400 whose body is a modern JSON-RPC
 * error comes from a modern server refusing the request, not from an older server.
 */
export function isModernRefusal(body: string): boolean {
  const rpc = errorInBody(body);
  return rpc !== undefined && MODERN_CODES.includes(rpc.code);
}

/**
 * An HTTP error status. A body holding the server's JSON-RPC error is that error, as the
 * server sent it (transports §Sending Messages lets a server answer a request with an HTTP
 * error and a JSON-RPC error response): the same code, message and data as on stdio.
 * Anything else is described, with the start of its text.
 */
export function httpError(target: string, response: Response, body: string): JsonRpcErrorObject {
  const rpc = errorInBody(body);
  if (rpc) {
    // httpStatus never reaches the wire: McpError keeps it beside the server's own fields.
    const error = { code: rpc.code, message: rpc.message, httpStatus: response.status };
    return rpc.data === undefined ? error : { ...error, data: rpc.data };
  }
  const status = `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ""}`;
  const text = body.trim().slice(0, 300);
  const data: JsonObject = { reason: "http-error", status: response.status };
  if (text) data.body = text;
  return {
    code: ErrorCode.ConnectionClosed,
    message: `${target} failed with ${status}${text ? `: ${text}` : ""}`,
    data,
  };
}

/** A request that never got an HTTP answer (refused connection, reset, DNS). */
export function networkError(target: string, error: unknown): JsonRpcErrorObject {
  // The `auth` option's own failure (no redirect configured, the IdP said no…): not the network.
  if (error instanceof Error && error.name === "OAuthError") {
    return {
      code: ErrorCode.ConnectionClosed,
      message: `${target} needs authorization, which failed: ${error.message}`,
      data: { reason: "authorization-failed", oauthError: (error as Error & { code?: string }).code },
    };
  }
  const cause = (error as { cause?: { message?: string; code?: string } })?.cause;
  const why = error instanceof Error ? error.message : String(error);
  const detail = cause?.code ?? cause?.message;
  return {
    code: ErrorCode.ConnectionClosed,
    message: `${target} failed: ${why}${detail ? ` (${detail})` : ""}`,
    data: { reason: "network-error" },
  };
}

/** A successful HTTP answer that breaks the transport's rules (wrong content type, bad JSON, no stream). */
export const protocolError = (message: string): JsonRpcErrorObject => ({
  code: ErrorCode.ConnectionClosed,
  message,
  data: { reason: "transport-error" },
});

/**
 * A 2026-07-28 request whose response stream ended or broke before the response: that
 * revision cannot resume it, so the request is lost and the caller must send it again
 * with a new id (changelog item 9; the Client does so once).
 */
export const streamLost = (): JsonRpcErrorObject => ({
  code: ErrorCode.ConnectionClosed,
  message: "The server's response stream ended before the response, and this protocol revision cannot resume it",
  data: { reason: "stream-lost" },
});

export const errorResponses = (ids: Iterable<RequestId>, error: JsonRpcErrorObject): JsonRpcFailure[] =>
  Array.from(ids, (id) => ({ jsonrpc: "2.0", id, error }));

/** An error object as an Error, for `onError` when no request can carry it. */
export const asError = (error: JsonRpcErrorObject): Error =>
  Object.assign(new Error(error.message), { data: error.data });
