import { ErrorCode, McpError } from "../jsonrpc/errors.js";
import { failure, success } from "../jsonrpc/message.js";
import type { JsonRpcErrorObject, JsonRpcResponse } from "../jsonrpc/types.js";
import type { InboundRequest } from "./inbound-request.js";

/**
 * The error object a failed handler is answered with: an McpError as it is; anything else
 * is reported through `onError` and answered -32603, so no stack trace or internal message
 * ever reaches the peer.
 */
export function errorObjectOf(error: unknown, onError: ((error: unknown) => void) | undefined): JsonRpcErrorObject {
  if (error instanceof McpError) return error.toJSON();
  onError?.(error);
  return { code: ErrorCode.InternalError, message: "Internal error" };
}

/**
 * Runs `answer` to a response for `request`, whichever way it ends. A request its client
 * cancelled (closing the response stream, on HTTP) fails with the cancellation: that is the
 * client's choice, not a fault, so nothing reaches `onError` (as on a connection, where a
 * cancelled request is not answered at all).
 */
export async function respondTo(
  request: InboundRequest,
  answer: () => object | Promise<object>,
  onError: ((error: unknown) => void) | undefined,
): Promise<JsonRpcResponse> {
  try {
    return success(request.id, await answer());
  } catch (error) {
    return failure(request.id, errorObjectOf(error, request.cancelled ? undefined : onError));
  }
}
