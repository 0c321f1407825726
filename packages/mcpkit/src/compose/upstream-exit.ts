import { ErrorCode, McpError } from "../jsonrpc/errors.js";
import { upstreamFailure } from "./upstream-errors.js";

/** How long a call that failed with its connection waits for the connection to say why. */
const REASON_WAIT_MS = 1000;

/**
 * What the caller of a forwarded request is told when it failed: the upstream's own error
 * as it is, a transport failure without its address (upstreamFailure), and when the
 * connection ended under the call, why: a process's exit (`it exited with code 1`, `it was
 * killed by SIGKILL`), never what an HTTP transport's error says of the server's address.
 */
export async function callFailure(error: unknown, closed: Promise<Error | undefined>): Promise<unknown> {
  const failure = upstreamFailure(error);
  if (!(failure instanceof McpError) || failure.code !== ErrorCode.ConnectionClosed || failure.data !== undefined)
    return failure;
  let timer: NodeJS.Timeout | undefined;
  const reason = await Promise.race([
    closed,
    new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), REASON_WAIT_MS);
    }),
  ]).finally(() => clearTimeout(timer));
  const exit = exitOf(reason);
  if (!exit) return failure;
  return new McpError(ErrorCode.ConnectionClosed, `The server behind this proxy stopped: ${exit}`, {
    reason: "upstream-exited",
  });
}

/** A process's exit as a stdio transport tells it ("Server process exited with code 1"), in words for a caller. */
export function exitOf(reason: Error | undefined): string | undefined {
  const match = reason && /^Server process (exited with code -?\d+|was killed by [A-Z0-9]+)$/.exec(reason.message);
  return match ? `it ${match[1]}` : undefined;
}
