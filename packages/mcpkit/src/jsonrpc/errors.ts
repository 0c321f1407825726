import type { JsonRpcErrorObject } from "./types.js";

/** Error codes: JSON-RPC 2.0 §5.1 and the MCP-specific ones. */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** Resource not found before 2026-07-28 (server/resources §Error Handling). */
  ResourceNotFound: -32002,
  /** client/elicitation §URL Elicitation Required Error (2025-11-25). */
  UrlElicitationRequired: -32042,
  /** 2026-07-28 transport errors (basic/index §Error codes). */
  HeaderMismatch: -32020,
  MissingRequiredClientCapability: -32021,
  UnsupportedProtocolVersion: -32022,
  /** Implementation-defined: a request that timed out locally, or a closed connection. */
  RequestTimeout: -32001,
  ConnectionClosed: -32000,
} as const;

export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];

/**
 * A protocol error: thrown by handlers to answer with a JSON-RPC error, and rejected
 * from client calls when the peer answered with one.
 */
export class McpError extends Error {
  readonly code: number;
  readonly data: unknown;
  /**
   * The HTTP status the answer came with, when a server answered over HTTP with an error
   * status and a JSON-RPC error in the body (that error is `code`, `message` and `data`).
   */
  httpStatus?: number;

  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.name = "McpError";
    this.code = code;
    this.data = data;
  }

  toJSON(): JsonRpcErrorObject {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }

  static fromObject(error: JsonRpcErrorObject & { httpStatus?: number }): McpError {
    const made = new McpError(error.code, error.message, error.data);
    if (typeof error.httpStatus === "number") made.httpStatus = error.httpStatus;
    return made;
  }
}

export const invalidParams = (message: string, data?: unknown) => new McpError(ErrorCode.InvalidParams, message, data);

export const methodNotFound = (method: string) => new McpError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
