import type {
  JsonObject,
  JsonRpcErrorObject,
  JsonRpcFailure,
  JsonRpcMessage,
  JsonRpcNotification,
  JsonRpcSuccess,
  RequestId,
} from "./types.js";

/**
 * Structural checks for one decoded JSON-RPC message: small hand-written guards, run once
 * per message, instead of a schema library (the hot path is plain code).
 */

const isObject = (v: unknown): v is JsonObject => typeof v === "object" && v !== null && !Array.isArray(v);

const isId = (v: unknown): v is RequestId => typeof v === "string" || (typeof v === "number" && Number.isFinite(v));

/** Why `value` is not a JSON-RPC 2.0 message as MCP uses them, or undefined if it is one. */
export function messageProblem(value: unknown): string | undefined {
  if (!isObject(value)) return "a JSON-RPC message must be a JSON object";
  if (value.jsonrpc !== "2.0") return 'the "jsonrpc" member must be exactly "2.0"';
  if ("method" in value) {
    if (typeof value.method !== "string") return 'the "method" member must be a string';
    if ("id" in value && !isId(value.id)) return 'a request "id" must be a string or a number';
    if ("params" in value && value.params !== undefined && !isObject(value.params))
      return 'MCP requires "params" to be an object';
    return undefined;
  }
  if ("result" in value) {
    if (!isId(value.id)) return 'a response "id" must be a string or a number';
    if (!isObject(value.result)) return 'a "result" must be an object';
    if ("error" in value) return 'a response must not carry both "result" and "error"';
    return undefined;
  }
  if ("error" in value) {
    if (value.id !== undefined && value.id !== null && !isId(value.id))
      return 'an error response "id" must be a string or a number (or absent)';
    const e = value.error;
    if (!isObject(e) || typeof e.code !== "number" || typeof e.message !== "string")
      return 'an "error" must be an object with a numeric "code" and a string "message"';
    return undefined;
  }
  return 'a message needs a "method" (request or notification) or a "result"/"error" (response)';
}

/** The id of a (possibly malformed) message, for answering it; undefined when unreadable. */
export function readableId(value: unknown): RequestId | undefined {
  return isObject(value) && isId(value.id) ? value.id : undefined;
}

export const isRequest = (m: JsonRpcMessage): m is Extract<JsonRpcMessage, { method: string; id: RequestId }> =>
  "method" in m && "id" in m;

/**
 * A typed value (a CallToolResult, a task) as a message carries it: any JSON-shaped object
 * is a JsonObject on the wire. The one step from the protocol's types to JSON.
 */
export const asJson = (value: object): JsonObject => value as JsonObject;

/**
 * JSON a peer sent, read as the type its method's specification gives (a result, a task):
 * unchecked by design, the other step between JSON and the protocol's types.
 */
export const fromJson = <T extends object>(value: JsonObject): T => value as T;

/** fromJson for an answer on its way (no promise added). */
export const answerAs = <T extends object>(answer: Promise<JsonObject>): Promise<T> => answer as Promise<T>;

export const success = (id: RequestId, result: object): JsonRpcSuccess => ({
  jsonrpc: "2.0",
  id,
  result: asJson(result),
});

/** A notification; `params` any JSON-shaped object. */
export const notification = (method: string, params?: object): JsonRpcNotification =>
  params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params: asJson(params) };

/** An error response; `id` undefined leaves it out (2025-11-25's form for an unreadable id). */
export const failure = (id: RequestId | null | undefined, error: JsonRpcErrorObject): JsonRpcFailure =>
  id === undefined ? { jsonrpc: "2.0", error } : { jsonrpc: "2.0", id, error };
