import { ErrorCode, McpError } from "../jsonrpc/errors.js";

/** What the proxy's callers are told when reaching the upstream server failed: never its address. */

const FAILURES: Record<string, (status: unknown) => string> = {
  "http-error": (status) => `answered with HTTP ${typeof status === "number" ? status : "an error status"}`,
  "network-error": () => "could not be reached",
  "transport-error": () => "answered in a way the transport does not allow",
  "session-expired": () => "lost the proxy's session",
  "stream-lost": () => "dropped the response before it was complete",
  "authorization-failed": () => "did not authorize the proxy",
};

/**
 * The upstream client's transport failures (their messages name the upstream's URL, and
 * an HTTP body may say more) become an McpError that says what happened and no more; the
 * upstream server's own answers pass unchanged.
 */
export function upstreamFailure(error: unknown): unknown {
  if (!(error instanceof McpError)) return error;
  const data = error.data as { reason?: unknown; status?: unknown } | undefined;
  const describe = typeof data?.reason === "string" ? FAILURES[data.reason] : undefined;
  if (describe) {
    const status = typeof data?.status === "number" ? { status: data.status } : {};
    return new McpError(error.code, `The server behind this proxy ${describe(data?.status)}`, {
      reason: data?.reason,
      ...status,
    });
  }
  if (error.code === ErrorCode.ConnectionClosed && data === undefined)
    return new McpError(error.code, "The server behind this proxy closed the connection");
  return error;
}
