import type { JsonObject, RequestId } from "../../jsonrpc/types.js";
import { type HttpReply, jsonReply } from "./exchange.js";

/**
 * An HTTP error whose body is a JSON-RPC error response: with the request's id when it
 * could be read, without one otherwise (transports §Sending Messages).
 */
export function jsonRpcErrorReply(
  status: number,
  code: number,
  message: string,
  headers?: Record<string, string>,
  id?: RequestId,
  data?: unknown,
): HttpReply {
  const error: JsonObject = data === undefined ? { code, message } : { code, message, data };
  const body = id === undefined ? { jsonrpc: "2.0", error } : { jsonrpc: "2.0", id, error };
  return jsonReply(status, JSON.stringify(body), headers);
}
