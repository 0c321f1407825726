import { ErrorCode, McpError } from "mcpkit";
import { USAGE_EXIT, UsageError } from "../usage-error.js";

export { UsageError };

/**
 * What `mcpkit call` exits with, so scripts can tell a tool that failed from a server
 * that refused the request from a server that could not be reached (docs/cli.md).
 */
export const EXIT = {
  ok: 0,
  /** The tool ran and reported failure: its result has `isError: true`. */
  toolError: 1,
  /** The command line is wrong: unknown action, tool or prompt, or arguments that do not fit. */
  usage: USAGE_EXIT,
  /** The server answered with a JSON-RPC error (or the exchange broke the protocol). */
  protocol: 3,
  /** The server could not be started or reached, the connection dropped, or a request timed out. */
  connection: 4,
  /** Ctrl+C (128 + SIGINT), as shells report it. */
  interrupted: 130,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** The user pressed Ctrl+C. */
export class Interrupted extends Error {
  override name = "Interrupted";
  constructor() {
    super("Interrupted");
  }
}

/**
 * -32000 and -32001 are the implementation-defined codes mcpkit's client uses for a
 * connection that closed (or an HTTP request that failed) and for a local timeout; any
 * other JSON-RPC code is the server's answer. Errors that are not McpError come from
 * starting the transport (a command that does not exist, a refused connection).
 */
export function exitCodeFor(error: unknown): ExitCode {
  if (error instanceof UsageError) return EXIT.usage;
  if (error instanceof Interrupted) return EXIT.interrupted;
  if (error instanceof McpError)
    return error.code === ErrorCode.ConnectionClosed || error.code === ErrorCode.RequestTimeout
      ? EXIT.connection
      : EXIT.protocol;
  return EXIT.connection;
}
