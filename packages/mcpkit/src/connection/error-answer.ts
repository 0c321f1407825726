import { ErrorCode, McpError } from "../jsonrpc/errors.js";
import { failure, success } from "../jsonrpc/message.js";
import type { JsonRpcErrorObject, JsonRpcResponse, RequestId } from "../jsonrpc/types.js";

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

/** Runs `answer` to a response for request `id`, whichever way it ends. */
export async function respondTo(
  id: RequestId,
  answer: () => object | Promise<object>,
  onError: ((error: unknown) => void) | undefined,
): Promise<JsonRpcResponse> {
  try {
    return success(id, await answer());
  } catch (error) {
    return failure(id, errorObjectOf(error, onError));
  }
}
